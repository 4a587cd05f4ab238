import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import prisma from "../db.server";
import { requestLocale, translate } from "../i18n/i18n";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const count = await prisma.invoice.count({ where: { shopDomain: session.shop } });
  return json({ shop: session.shop, count, locale: requestLocale(request) });
};

export default function Invoices() {
  const { count, locale } = useLoaderData<typeof loader>();
  return (
    <Page title={translate(locale, "home.title")}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="p" variant="bodyMd">
                {count === 0 ? translate(locale, "home.empty") : translate(locale, "home.count", { count })}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
