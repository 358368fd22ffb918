// Offline learning (issue 19) has no GraphQL operations, on purpose: downloading a copy and syncing attempts back
// are what the learner's own app does over REST (POST /api/offline/downloads and /api/offline/attempts, which
// refuse personal access tokens, the integrations GraphQL serves). Integrations read the outcome where it lands:
// attempts and results.
export {};
