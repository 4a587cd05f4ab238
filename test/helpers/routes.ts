// Calls a Remix loader or action the way the server does, and gives back the Response whether the
// route returned it or threw it (authentication failures are thrown Responses).
type RouteFunction = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => unknown;

export async function callRoute(
  fn: RouteFunction,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  try {
    const result = await fn({ request, params, context: {} });
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result ?? null), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
