// The four Admin API mutations of the write-back, exactly as sent. Tags only ever through tagsAdd and
// tagsRemove (orderUpdate's `tags` would replace the merchant's own).
import { z } from "zod";
import type {
  WriteBackFlowTriggerMutation,
  WriteBackMetafieldsMutation,
  WriteBackTagsAddMutation,
  WriteBackTagsRemoveMutation,
} from "../shopify/admin.generated";
import { answerShape } from "../shopify/answers";

export const METAFIELDS_SET = `#graphql
mutation WriteBackMetafields($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { key namespace } userErrors { field message code } }
}`;

export const TAGS_ADD = `#graphql
mutation WriteBackTagsAdd($id: ID!, $tags: [String!]!) {
  tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } }
}`;

export const TAGS_REMOVE = `#graphql
mutation WriteBackTagsRemove($id: ID!, $tags: [String!]!) {
  tagsRemove(id: $id, tags: $tags) { node { id } userErrors { field message } }
}`;

export const FLOW_TRIGGER_RECEIVE = `#graphql
mutation WriteBackFlowTrigger($handle: String, $payload: JSON) {
  flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
}`;

/** Every answer is checked for its userErrors (values Shopify refused); the rest of it is not needed. */
const UserErrorsSchema = z.array(
  z.looseObject({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() }),
);
export type UserErrors = z.infer<typeof UserErrorsSchema>;
const payload = z.looseObject({ userErrors: UserErrorsSchema }).nullable();

export const MetafieldsSetAnswer = answerShape<WriteBackMetafieldsMutation>()(z.object({ metafieldsSet: payload }));
export const TagsAddAnswer = answerShape<WriteBackTagsAddMutation>()(z.object({ tagsAdd: payload }));
export const TagsRemoveAnswer = answerShape<WriteBackTagsRemoveMutation>()(z.object({ tagsRemove: payload }));
export const FlowTriggerAnswer = answerShape<WriteBackFlowTriggerMutation>()(z.object({ flowTriggerReceive: payload }));
