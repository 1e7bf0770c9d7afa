"""HTTP API: REST (DRF) and GraphQL (Strawberry) over games services and selectors."""
