// Stands in for "@shopify/ui-extensions/preact" on the local host page: on Shopify that import registers the
// extension's Preact integration; here the page provides the `shopify` global and the s-* elements itself.
export {};
