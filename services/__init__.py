"""The service layer and the entry points, one subpackage per role.

memory/ (the Memory service, recall, corrections, subscriptions, dead letters), erasure/
and replay/ are the service layer; cli/ and api/ are the entry points; sdk/ is the remote
client; tools/ holds the evaluation and the gate calibration.
"""
