"""Stream wiring: the topic registry, the pipeline handlers and the two runtimes.

``topics`` declares every topic; ``topology`` says which stage reads which; ``pipeline``
holds the handlers both runtimes share (capture, derive, index, views). ``runtime`` builds
one runtime's components (embedded or Kafka), and is the only way into ``infra``;
``faust`` is the distributed worker;
``erasure`` carries one request from its filing to its receipt and audit.
"""
