// The app's access to the store, when it is not simply there: lost (Shopify refused to renew the offline token), or
// restored in the last days (what happened and that the waiting work runs again). app/shops/connection.server.ts
import { Banner } from "@shopify/polaris";
import { useT } from "../i18n/react";
import { formatDateTime } from "../ui/format";

export type ConnectionView =
  | { state: "connected" }
  | { state: "lost"; lostAt: string; reason: string | null }
  | { state: "restored"; lostAt: string; restoredAt: string; reason: string | null };

export function ConnectionBanner({ connection, timezone }: { connection: ConnectionView; timezone: string }) {
  const t = useT();
  if (connection.state === "connected") return null;
  const reason = t.dyn(`connection.reason.${connection.reason ?? "other"}`, t("connection.reason.other"));
  const at = (iso: string) => formatDateTime(iso, t.locale, timezone);
  return connection.state === "lost" ? (
    <Banner tone="critical" title={t("banner.connectionLost.title")}>
      <p id="connection-banner">{t("banner.connectionLost.body", { at: at(connection.lostAt), reason })}</p>
    </Banner>
  ) : (
    <Banner tone="info" title={t("banner.connectionRestored.title")}>
      <p id="connection-banner">
        {t("banner.connectionRestored.body", {
          lostAt: at(connection.lostAt),
          restoredAt: at(connection.restoredAt),
          reason,
        })}
      </p>
    </Banner>
  );
}
