// Placeholder until its part of issue 15 lands: GraphQL of bookings (settings).
export {};
