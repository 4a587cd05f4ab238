// The subset of Shopify's Admin GraphQL API the app uses, with Shopify's type names, field names, argument names and
// nullability: test/shopify-standin/published-schema.test.ts holds every field of it to Shopify's published schema of
// the version the app declares, so a query that runs here runs against Shopify.

// Shopify's CurrencyCode and CountryCode enums as its published Admin schema of 2026-10 lists them (not the
// runtime's ISO lists: those hold codes Shopify refuses, such as PR or UK; test/shopify-standin/published-schema.test.ts).
const CURRENCIES = `
  AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BYR BZD CAD CDF CHF
  CLP CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF
  IDR ILS INR IQD IRR ISK JEP JMD JOD JPY KES KGS KHR KID KMF KRW KWD KYD KZT LAK LBP LKR LRD LSL LTL LVL LYD MAD MDL
  MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD
  RUB RWF SAR SBD SCR SDG SEK SGD SHP SLL SOS SRD SSP STD STN SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD
  USDC UYU UZS VED VEF VES VND VUV WST XAF XCD XOF XPF XXX YER ZAR ZMW
`
  .trim()
  .split(/\s+/);

const COUNTRIES = `
  AC AD AE AF AG AI AL AM AN AO AR AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA
  CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FO FR GA GB
  GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG
  KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MK ML MM MN MO MQ MR MS MT MU MV MW
  MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PS PT PY QA RE RO RS RU RW SA SB SC SD
  SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TA TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US
  UY UZ VA VC VE VG VN VU WF WS XK YE YT ZA ZM ZW ZZ
`
  .trim()
  .split(/\s+/);

export const SCHEMA_SDL = /* GraphQL */ `
"An ISO-8601 date and time, e.g. 2026-11-20T11:05:11Z."
scalar DateTime
"A decimal number serialized as a string, e.g. \\"249.9\\"."
scalar Decimal
"An unsigned 64-bit integer serialized as a string."
scalar UnsignedInt64
"Any JSON value."
scalar JSON
"An RFC 3986 URL."
scalar URL

enum CurrencyCode { ${CURRENCIES.join(" ")} }
enum CountryCode { ${COUNTRIES.join(" ")} }

enum OrderDisplayFinancialStatus { AUTHORIZED EXPIRED PAID PARTIALLY_PAID PARTIALLY_REFUNDED PENDING REFUNDED VOIDED }
enum FulfillmentStatus { CANCELLED ERROR FAILURE OPEN PENDING SUCCESS }
enum OrderSortKeys { CREATED_AT CUSTOMER_NAME DESTINATION FINANCIAL_STATUS FULFILLMENT_STATUS ID ORDER_NUMBER PO_NUMBER PROCESSED_AT RELEVANCE TOTAL_ITEMS_QUANTITY TOTAL_PRICE UPDATED_AT }
enum OrderAdjustmentDiscrepancyReason { CUSTOMER DAMAGE FULL_RETURN_BALANCING_ADJUSTMENT PENDING_REFUND_DISCREPANCY REFUND_DISCREPANCY RESTOCK }
enum MetafieldOwnerType { API_PERMISSION ARTICLE BLOG CARTTRANSFORM COLLECTION COMPANY COMPANY_LOCATION CUSTOMER DELIVERY_CUSTOMIZATION DISCOUNT DRAFTORDER FULFILLMENT_CONSTRAINT_RULE GIFT_CARD_TRANSACTION LOCATION MARKET ORDER ORDER_ROUTING_LOCATION_RULE PAGE PAYMENT_CUSTOMIZATION PRODUCT PRODUCTVARIANT SELLING_PLAN SHOP VALIDATION }
enum MetafieldAdminAccessInput { MERCHANT_READ MERCHANT_READ_WRITE }
enum MetafieldStorefrontAccessInput { NONE PUBLIC_READ }
enum MetafieldCustomerAccountAccessInput { NONE READ READ_WRITE }
enum MetafieldsSetUserErrorCode { APP_NOT_AUTHORIZED BLANK CAPABILITY_VIOLATION INCLUSION INVALID INVALID_COMPARE_DIGEST INVALID_TYPE INVALID_VALUE LESS_THAN_OR_EQUAL_TO PRESENT TAKEN TOO_LONG TOO_SHORT }
enum MetafieldDefinitionCreateUserErrorCode { DUPLICATE_OPTION INCLUSION INVALID INVALID_CAPABILITY INVALID_CHARACTER INVALID_OPTION LIMIT_EXCEEDED OWNER_TYPE_LIMIT_EXCEEDED_FOR_AUTOMATED_COLLECTIONS PINNED_LIMIT_REACHED PRESENT RESERVED_NAMESPACE_KEY RESOURCE_TYPE_LIMIT_EXCEEDED TAKEN TOO_LONG TOO_SHORT TYPE_NOT_ALLOWED_FOR_CONDITIONS UNSTRUCTURED_ALREADY_EXISTS }

interface Node { id: ID! }

type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }

type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
type MoneyBag { shopMoney: MoneyV2! presentmentMoney: MoneyV2! }

type TaxLine { title: String! priceSet: MoneyBag! rate: Float ratePercentage: Float channelLiable: Boolean source: String }

interface DiscountApplication { index: Int! }
type DiscountCodeApplication implements DiscountApplication { index: Int! code: String! }
type AutomaticDiscountApplication implements DiscountApplication { index: Int! title: String! }
type ManualDiscountApplication implements DiscountApplication { index: Int! title: String! description: String }
type ScriptDiscountApplication implements DiscountApplication { index: Int! title: String! }
type DiscountAllocation { allocatedAmountSet: MoneyBag! discountApplication: DiscountApplication! }

type Product implements Node { id: ID! legacyResourceId: UnsignedInt64! }
type ProductVariant implements Node { id: ID! legacyResourceId: UnsignedInt64! }

type LineItem implements Node {
  id: ID!
  name: String!
  title: String!
  variantTitle: String
  sku: String
  quantity: Int!
  currentQuantity: Int!
  originalUnitPriceSet: MoneyBag!
  totalDiscountSet: MoneyBag!
  discountAllocations: [DiscountAllocation!]!
  taxLines(first: Int): [TaxLine!]!
  taxable: Boolean!
  requiresShipping: Boolean!
  isGiftCard: Boolean!
  product: Product
  variant: ProductVariant
}
type LineItemEdge { cursor: String! node: LineItem! }
type LineItemConnection { edges: [LineItemEdge!]! nodes: [LineItem!]! pageInfo: PageInfo! }

type ShippingLine {
  id: ID
  title: String!
  code: String
  source: String
  carrierIdentifier: String
  isRemoved: Boolean!
  originalPriceSet: MoneyBag!
  discountedPriceSet: MoneyBag!
  taxLines: [TaxLine!]!
  discountAllocations: [DiscountAllocation!]!
}
type ShippingLineEdge { cursor: String! node: ShippingLine! }
type ShippingLineConnection { edges: [ShippingLineEdge!]! nodes: [ShippingLine!]! pageInfo: PageInfo! }

type Attribute { key: String! value: String }

type MailingAddress implements Node {
  id: ID!
  firstName: String
  lastName: String
  name: String
  company: String
  address1: String
  address2: String
  city: String
  province: String
  provinceCode: String
  zip: String
  country: String
  countryCodeV2: CountryCode
  phone: String
}

type CustomerEmailAddress { emailAddress: String! }
type CustomerPhoneNumber { phoneNumber: String! }
type Customer implements Node {
  id: ID!
  legacyResourceId: UnsignedInt64!
  firstName: String
  lastName: String
  displayName: String!
  email: String @deprecated(reason: "Use defaultEmailAddress.emailAddress instead.")
  phone: String @deprecated(reason: "Use defaultPhoneNumber.phoneNumber instead.")
  defaultEmailAddress: CustomerEmailAddress
  defaultPhoneNumber: CustomerPhoneNumber
}

type FulfillmentTrackingInfo { company: String number: String url: URL }
type Fulfillment implements Node {
  id: ID!
  legacyResourceId: UnsignedInt64!
  name: String!
  status: FulfillmentStatus!
  createdAt: DateTime!
  trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
}

type RefundLineItem { id: ID lineItem: LineItem! quantity: Int! }
type RefundLineItemEdge { cursor: String! node: RefundLineItem! }
type RefundLineItemConnection { edges: [RefundLineItemEdge!]! nodes: [RefundLineItem!]! pageInfo: PageInfo! }
type OrderAdjustment implements Node { id: ID! amountSet: MoneyBag! taxAmountSet: MoneyBag! reason: OrderAdjustmentDiscrepancyReason }
type OrderAdjustmentEdge { cursor: String! node: OrderAdjustment! }
type OrderAdjustmentConnection { edges: [OrderAdjustmentEdge!]! nodes: [OrderAdjustment!]! pageInfo: PageInfo! }
type Refund implements Node {
  id: ID!
  legacyResourceId: UnsignedInt64!
  createdAt: DateTime
  refundLineItems(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): RefundLineItemConnection!
  orderAdjustments(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): OrderAdjustmentConnection!
}

type Metafield implements Node {
  id: ID!
  namespace: String!
  key: String!
  value: String!
  type: String!
  compareDigest: String!
  createdAt: DateTime!
  updatedAt: DateTime!
}
type MetafieldEdge { cursor: String! node: Metafield! }
type MetafieldConnection { edges: [MetafieldEdge!]! nodes: [Metafield!]! pageInfo: PageInfo! }

"B2B: the company, its location (where the buyer's tax registration id and billing address are) and the union an order's purchasingEntity is."
type Company implements Node {
  id: ID!
  name: String!
  metafield(namespace: String, key: String!): Metafield
}
type CompanyAddress implements Node {
  id: ID!
  address1: String!
  address2: String
  city: String
  province: String
  zoneCode: String
  zip: String
  country: String
  countryCode: CountryCode!
  companyName: String!
  firstName: String
  lastName: String
  phone: String
}
type CompanyLocationTaxSettings { taxExempt: Boolean! taxRegistrationId: String }
type CompanyLocation implements Node {
  id: ID!
  name: String!
  company: Company!
  billingAddress: CompanyAddress
  taxSettings: CompanyLocationTaxSettings!
  metafield(namespace: String, key: String!): Metafield
}
type PurchasingCompany { company: Company! location: CompanyLocation! }
union PurchasingEntity = Customer | PurchasingCompany

type Order implements Node {
  purchasingEntity: PurchasingEntity
  id: ID!
  legacyResourceId: UnsignedInt64!
  name: String!
  number: Int!
  createdAt: DateTime!
  updatedAt: DateTime!
  processedAt: DateTime!
  cancelledAt: DateTime
  test: Boolean!
  sourceName: String
  currencyCode: CurrencyCode!
  presentmentCurrencyCode: CurrencyCode!
  taxesIncluded: Boolean!
  totalPriceSet: MoneyBag!
  currentTotalPriceSet: MoneyBag!
  subtotalPriceSet: MoneyBag
  totalTaxSet: MoneyBag
  totalDiscountsSet: MoneyBag
  totalTipReceivedSet: MoneyBag!
  email: String
  phone: String
  note: String
  tags: [String!]!
  customer: Customer
  billingAddress: MailingAddress
  shippingAddress: MailingAddress
  customAttributes: [Attribute!]!
  paymentGatewayNames: [String!]!
  displayFinancialStatus: OrderDisplayFinancialStatus
  lineItems(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): LineItemConnection!
  shippingLines(first: Int, after: String, last: Int, before: String, reverse: Boolean = false, includeRemovals: Boolean = false): ShippingLineConnection!
  fulfillments(first: Int): [Fulfillment!]!
  refunds(first: Int): [Refund!]!
  metafield(namespace: String, key: String!): Metafield
  metafields(first: Int, after: String, last: Int, before: String, reverse: Boolean = false, namespace: String, keys: [String!]): MetafieldConnection!
}
type OrderEdge { cursor: String! node: Order! }
type OrderConnection { edges: [OrderEdge!]! nodes: [Order!]! pageInfo: PageInfo! }

type Domain { url: URL! }
type Shop {
  name: String!
  email: String!
  myshopifyDomain: String!
  ianaTimezone: String!
  currencyCode: CurrencyCode!
  taxesIncluded: Boolean!
  primaryDomain: Domain!
}

enum CountPrecision { AT_LEAST EXACT }
type Count { count: Int! precision: CountPrecision! }

enum BulkOperationStatus { CANCELED CANCELING COMPLETED CREATED EXPIRED FAILED RUNNING }
enum BulkOperationErrorCode { ACCESS_DENIED INTERNAL_SERVER_ERROR TIMEOUT }
enum BulkOperationType { MUTATION QUERY }
enum BulkOperationUserErrorCode { INVALID LIMIT_REACHED OPERATION_IN_PROGRESS }
type BulkOperation implements Node {
  id: ID!
  status: BulkOperationStatus!
  errorCode: BulkOperationErrorCode
  objectCount: UnsignedInt64!
  rootObjectCount: UnsignedInt64!
  url: URL
  partialDataUrl: URL
  fileSize: UnsignedInt64
  query: String!
  type: BulkOperationType!
  createdAt: DateTime!
  completedAt: DateTime
}
type BulkOperationUserError { code: BulkOperationUserErrorCode field: [String!] message: String! }
type BulkOperationRunQueryPayload { bulkOperation: BulkOperation userErrors: [BulkOperationUserError!]! }

type QueryRoot {
  order(id: ID!): Order
  refund(id: ID!): Refund
  orders(first: Int, after: String, last: Int, before: String, reverse: Boolean = false, sortKey: OrderSortKeys = ID, query: String, savedSearchId: ID): OrderConnection!
  ordersCount(query: String, limit: Int = 10000, savedSearchId: ID): Count
  node(id: ID!): Node
  currentBulkOperation(type: BulkOperationType = QUERY): BulkOperation
  shop: Shop!
}

type UserError { field: [String!] message: String! }

type TagsAddPayload { node: Node userErrors: [UserError!]! }
type TagsRemovePayload { node: Node userErrors: [UserError!]! }

input MetafieldsSetInput { ownerId: ID! namespace: String key: String! value: String! type: String compareDigest: String }
type MetafieldsSetUserError { field: [String!] message: String! code: MetafieldsSetUserErrorCode elementIndex: Int }
type MetafieldsSetPayload { metafields: [Metafield!] userErrors: [MetafieldsSetUserError!]! }

input MetafieldAccessInput { admin: MetafieldAdminAccessInput storefront: MetafieldStorefrontAccessInput customerAccount: MetafieldCustomerAccountAccessInput }
input MetafieldDefinitionValidationInput { name: String! value: String! }
input MetafieldDefinitionInput {
  name: String!
  namespace: String
  key: String!
  description: String
  type: String!
  ownerType: MetafieldOwnerType!
  pin: Boolean = false
  validations: [MetafieldDefinitionValidationInput!]
  access: MetafieldAccessInput
}
type MetafieldDefinitionType { name: String! }
type MetafieldDefinition implements Node { id: ID! name: String! namespace: String! key: String! description: String type: MetafieldDefinitionType! ownerType: MetafieldOwnerType! }
type MetafieldDefinitionCreateUserError { field: [String!] message: String! code: MetafieldDefinitionCreateUserErrorCode }
type MetafieldDefinitionCreatePayload { createdDefinition: MetafieldDefinition userErrors: [MetafieldDefinitionCreateUserError!]! }

type FlowTriggerReceivePayload { userErrors: [UserError!]! }

type Mutation {
  tagsAdd(id: ID!, tags: [String!]!): TagsAddPayload
  tagsRemove(id: ID!, tags: [String!]!): TagsRemovePayload
  metafieldsSet(metafields: [MetafieldsSetInput!]!): MetafieldsSetPayload
  metafieldDefinitionCreate(definition: MetafieldDefinitionInput!): MetafieldDefinitionCreatePayload
  flowTriggerReceive(handle: String, payload: JSON, body: String @deprecated(reason: "Use handle and payload.")): FlowTriggerReceivePayload
  bulkOperationRunQuery(query: String!, groupObjects: Boolean! = false): BulkOperationRunQueryPayload
}

schema { query: QueryRoot mutation: Mutation }
`;
