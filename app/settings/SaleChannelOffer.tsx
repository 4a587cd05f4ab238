// Settings: the invoicing account has no sales channel for this shop. One click creates it for the shop's
// domain and selects it (app/settings/sale-channel.server.ts).
import { Banner } from "@shopify/polaris";
import { useT } from "../i18n/react";

interface Props {
  domain: string;
  creating: boolean;
  error?: string;
  onCreate: () => void;
}

export function SaleChannelOffer({ domain, creating, error, onCreate }: Props) {
  const t = useT();
  return (
    <div id="sale-channel-offer">
      <Banner
        tone={error ? "critical" : "info"}
        title={t("settings.saleChannel.none", { domain })}
        action={{
          content: t("settings.saleChannel.create"),
          onAction: onCreate,
          loading: creating,
          id: "create-sale-channel",
        }}
      >
        <p>{error ?? t("settings.saleChannel.noneBody")}</p>
      </Banner>
    </div>
  );
}
