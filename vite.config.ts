import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// `shopify app dev` passes the tunnel address as SHOPIFY_APP_URL; HMR must go through it.
const appUrl = new URL(process.env.SHOPIFY_APP_URL || "http://localhost");
const hmr =
  appUrl.hostname === "localhost"
    ? { protocol: "ws", host: "localhost", port: 64999, clientPort: 64999 }
    : { protocol: "wss", host: appUrl.hostname, port: Number(process.env.FRONTEND_PORT) || 8002, clientPort: 443 };

export default defineConfig({
  server: {
    port: Number(process.env.PORT || 3000),
    hmr,
    fs: { allow: ["app", "node_modules"] },
  },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: false,
        v3_routeConfig: false,
      },
    }),
  ],
  // The generated Prisma clients load their query compiler (WebAssembly) from files next to themselves:
  // keep them out of the bundle; Node resolves "#prisma/..." through package.json "imports" at run time.
  build: { assetsInlineLimit: 0, rollupOptions: { external: [/^#prisma\//] } },
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"] },
});
