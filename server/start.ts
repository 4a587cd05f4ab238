// npm start: the production server (server/app-server.ts) on the built app (npm run build).
// NODE_ENV first: the app reads its configuration once, when the build is imported.
process.env.NODE_ENV ??= "production";
const { startAppServer } = await import("./app-server");
await startAppServer();

export {};
