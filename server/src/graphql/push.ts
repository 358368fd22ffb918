// Push notification devices in GraphQL (issue 19). Reserved; its helper writes it.
export {};
