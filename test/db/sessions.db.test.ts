// The app's own storage of the Shopify library's sessions (app/db/sessions.server.ts), judged by the library's
// Session.equals: what is stored comes back the same, for offline and online sessions, on both databases.
import { Session } from "@shopify/shopify-api";
import { beforeEach, describe, expect, it } from "vitest";
import { PrismaSessions } from "../../app/db/sessions.server";
import { prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

const store = new PrismaSessions(prisma);

const offline = (shop = SHOP) =>
  new Session({
    id: `offline_${shop}`,
    shop,
    state: "",
    isOnline: false,
    scope: "read_orders,write_orders",
    accessToken: "shpat_offline",
    refreshToken: "shprt_refresh",
    refreshTokenExpires: new Date("2027-01-01T00:00:00.000Z"),
  });

/** An online session as token exchange gives it: the user, their scope and the token's lifetime. */
const online = (userId: number, expires: string, user: Record<string, unknown> = {}) =>
  new Session({
    id: `${SHOP}_${userId}`,
    shop: SHOP,
    state: "state-1",
    isOnline: true,
    scope: "read_orders",
    accessToken: `shpua_${userId}`,
    expires: new Date(expires),
    onlineAccessInfo: {
      expires_in: 86_399,
      associated_user_scope: "read_orders",
      associated_user: {
        id: userId,
        first_name: "Ayşe",
        last_name: "Yılmaz",
        email: "ayse@example.com",
        email_verified: true,
        account_owner: true,
        locale: "tr",
        collaborator: false,
        ...user,
      },
    },
  });

describe("the app's session storage", () => {
  beforeEach(async () => {
    await prisma.session.deleteMany();
  });

  it("gives back an offline session as stored, refresh token and its expiry included", async () => {
    const session = offline();
    expect(await store.storeSession(session)).toBe(true);
    const loaded = await store.loadSession(session.id);
    expect(loaded?.equals(session)).toBe(true);
    expect(loaded).toMatchObject({
      accessToken: "shpat_offline",
      refreshToken: "shprt_refresh",
      refreshTokenExpires: new Date("2027-01-01T00:00:00.000Z"),
      expires: undefined,
    });
    expect(loaded?.isActive("read_orders")).toBe(true);
  });

  it("gives back an online session with its user; a user without a name has none (not the text 'null')", async () => {
    const session = online(4201, "2026-11-27T10:00:00.000Z");
    await store.storeSession(session);
    expect((await store.loadSession(session.id))?.equals(session)).toBe(true);

    const nameless = online(4202, "2026-11-27T10:00:00.000Z", {
      first_name: undefined,
      last_name: undefined,
      locale: undefined,
    });
    await store.storeSession(nameless);
    const user = (await store.loadSession(nameless.id))?.onlineAccessInfo?.associated_user;
    expect(user).toMatchObject({ id: 4202, email: "ayse@example.com", account_owner: true });
    expect(user?.first_name).toBeUndefined();
    expect(user?.last_name).toBeUndefined();
    expect(user?.locale).toBeUndefined();
  });

  it("stores again over the same id (a refreshed token), and the same new session stored five times at once is one row", async () => {
    await store.storeSession(offline());
    const refreshed = new Session({ ...offline().toObject(), accessToken: "shpat_new", scope: "read_orders" });
    await store.storeSession(refreshed);
    expect((await store.loadSession(refreshed.id))?.equals(refreshed)).toBe(true);

    const fresh = online(4300, "2026-11-27T10:00:00.000Z");
    expect(await Promise.all(Array.from({ length: 5 }, () => store.storeSession(fresh)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(await prisma.session.count({ where: { id: fresh.id } })).toBe(1);
  });

  it("finds every session of the shop (more than 25), the latest expiry first and the offline one last, none of another shop", async () => {
    await store.storeSession(offline());
    await store.storeSession(offline(OTHER_SHOP));
    for (let i = 0; i < 30; i++)
      await store.storeSession(online(5000 + i, `2026-11-${String(10 + (i % 20)).padStart(2, "0")}T10:00:00.000Z`));
    const found = await store.findSessionsByShop(SHOP);
    expect(found).toHaveLength(31);
    expect(found.every((session) => session.shop === SHOP)).toBe(true);
    expect(found.at(-1)?.id).toBe(`offline_${SHOP}`);
    const expiries = found.slice(0, -1).map((session) => session.expires!.getTime());
    expect(expiries).toEqual([...expiries].sort((a, b) => b - a));
  });

  it("deletes one or several sessions; deleting one that is not there is no error", async () => {
    await store.storeSession(offline());
    await store.storeSession(online(1, "2026-11-27T10:00:00.000Z"));
    await store.storeSession(online(2, "2026-11-27T10:00:00.000Z"));
    expect(await store.deleteSession("no-such-session")).toBe(true);
    expect(await store.deleteSession(`${SHOP}_1`)).toBe(true);
    expect(await store.deleteSessions([`${SHOP}_2`, "no-such-session"])).toBe(true);
    expect((await prisma.session.findMany({ select: { id: true } })).map((row) => row.id)).toEqual([`offline_${SHOP}`]);
    expect(await store.loadSession(`${SHOP}_1`)).toBeUndefined();
  });

  it("reads a row as the library's Prisma storage wrote it (the rows of an install before this storage)", async () => {
    await prisma.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        isOnline: false,
        scope: "read_orders",
        expires: null,
        accessToken: "shpat_old",
        userId: null,
        firstName: null,
        lastName: null,
        email: null,
        accountOwner: false,
        locale: null,
        collaborator: false,
        emailVerified: false,
        refreshToken: null,
        refreshTokenExpires: null,
      },
    });
    const loaded = await store.loadSession(`offline_${SHOP}`);
    expect(
      loaded?.equals(
        new Session({
          id: `offline_${SHOP}`,
          shop: SHOP,
          state: "",
          isOnline: false,
          scope: "read_orders",
          accessToken: "shpat_old",
        }),
      ),
    ).toBe(true);
  });
});
