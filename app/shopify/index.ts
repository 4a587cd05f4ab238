// The Admin API, GraphQL only (docs/decisions/0010-admin-api-and-standin.md).
export { adminGraphql, adminEndpoint } from "./admin.server";
export { createAdminClient, type AdminGraphql, type AdminClientOptions, type ThrottleStatus } from "./client.server";
export { AdminApiError, AdminAccessDeniedError, isAccessDenied, type AdminApiErrorKind } from "./errors";
export { readOrder, listOrders } from "./orders.server";
export {
  readOrderWith,
  listOrdersWith,
  orderGid,
  ORDERS_PAGE_MAX,
  type Order,
  type OrderPage,
  type ListOrdersOptions,
} from "./order-reads";
