// The zod shapes that read Admin API answers are held to the answer types generated from Shopify's published schema
// (admin.generated.ts, `npm run shopify:types`): a shape that would refuse an answer Shopify's schema allows for its
// document (a nullable field read as required, a field the document does not select) fails the type check.
// The shapes stay: an answer is still untrusted input and is validated at run time.
import type { z } from "zod";

/** `answerShape<ReadOrderQuery>()(z.object(…))` returns the shape, and compiles only if it accepts every `Answer`. */
export function answerShape<Answer>() {
  return <Shape extends z.ZodType>(
    shape: Shape,
    ..._refusesAnAnswerShopifyMayGive: [Answer] extends [z.input<Shape>] ? [] : [never]
  ): Shape => shape;
}
