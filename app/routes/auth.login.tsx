// /auth/login: where the library sends a request that reached the app outside Shopify's admin (a page reloaded or an
// address opened on its own, without the admin's shop and session token). It must never run authenticate.admin (the
// library refuses that on its login path with an English 500, issue 36 point 8): it asks for the shop's address and
// sends the browser to the app in that shop's admin (Shopify installs it first if need be). Both languages at once:
// outside the admin there is no admin language to follow.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider, BlockStack, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import polarisTr from "@shopify/polaris/locales/tr.json";
import { useState } from "react";
import { translate, type Locale } from "../i18n/i18n";
import { login } from "../shopify.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

/** The library's answer: a redirect to the shop's admin (thrown), or why the address was not taken. */
async function answer(request: Request) {
  const errors = await login(request);
  return json({ error: typeof errors.shop === "string" ? errors.shop : null });
}

export const loader = async ({ request }: LoaderFunctionArgs) => answer(request);
export const action = async ({ request }: ActionFunctionArgs) => answer(request);

export default function Login() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const error = acted?.error ?? loaded.error;
  const [shop, setShop] = useState("");
  const both = (key: Parameters<typeof translate>[1]) =>
    (["tr", "en"] as Locale[]).map((locale) => (
      <span key={locale} lang={locale} style={{ display: "block" }}>
        {translate(locale, key)}
      </span>
    ));
  return (
    <AppProvider i18n={polarisTr}>
      <main>
        <Page title={`${translate("tr", "login.title")} · ${translate("en", "login.title")}`}>
          <Card>
            <Form method="post">
              <BlockStack gap="400">
                <Text as="p">{both("login.body")}</Text>
                <FormLayout>
                  <TextField
                    name="shop"
                    label={`${translate("tr", "login.shop")} · ${translate("en", "login.shop")}`}
                    helpText="magazam.myshopify.com"
                    value={shop}
                    onChange={setShop}
                    autoComplete="on"
                    error={
                      error ? <>{both(error === "INVALID_SHOP" ? "login.invalid" : "login.missing")}</> : undefined
                    }
                  />
                  <Button submit variant="primary">
                    {`${translate("tr", "login.open")} · ${translate("en", "login.open")}`}
                  </Button>
                </FormLayout>
              </BlockStack>
            </Form>
          </Card>
        </Page>
      </main>
    </AppProvider>
  );
}
