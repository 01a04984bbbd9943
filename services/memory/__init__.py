"""The service layer: the Memory service, recall, corrections, subscriptions, dead letters."""
