/**
 * The headers that name the status of an accepted operation, most specific first (the one
 * followed when an answer has several): Azure's `Azure-AsyncOperation`, the `Operation-Location`
 * of Azure AI services and Microsoft Fabric, and HTTP's own `Location` (RFC 9110 §10.2.2).
 */
export const STATUS_HEADER_ORDER = ["azure-asyncoperation", "operation-location", "location"] as const;
