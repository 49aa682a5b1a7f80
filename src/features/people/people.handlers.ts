// Handlers for this resource group: one exported function per operationId (see businesses.handlers.ts).
export {};
