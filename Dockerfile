# provmem image: the CLI, the API and the faust workers.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY core core
COPY schemas schemas
COPY streams streams
COPY infra infra
COPY services services
RUN pip install --no-cache-dir .
RUN useradd --create-home provmem && mkdir -p /data && chown provmem /data
USER provmem
ENTRYPOINT ["provmem"]
CMD ["--help"]
