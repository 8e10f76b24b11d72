# openapi-mcp-bridge serving one spec over Streamable HTTP: port 3000, MCP at /mcp, GET /healthz.
#   docker build -t openapi-mcp-bridge .
#   docker run --rm -p 3000:3000 -v "$PWD/examples/petstore:/spec:ro" openapi-mcp-bridge
# The spec is /spec/openapi.yaml unless another path or an http(s) URL is given after the image
# name; every serve option comes from its OPENAPI_MCP_* variable (docker run -e ...).
# Observability is off unless asked for: -e OPENAPI_MCP_METRICS_PORT=9464 -p 9464:9464 serves
# Prometheus metrics at :9464/metrics; -e OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318
# exports traces and metrics over OTLP (the OpenTelemetry packages ship in the image: they are
# dependencies, loaded only when one of these is set).
# Three stages: build the package (npm pack, as published), install it without dev or
# optional dependencies (no compiler, no tokenizer: serve needs neither), and a runtime image
# with only that, run as the unprivileged `node` user.
# (test/e2e/dockerfile.test.ts builds this image when a container runtime is present and
# otherwise runs these commands in the test environment.)
ARG NODE_IMAGE=node:20-alpine

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY LICENSE README.md server.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY templates ./templates
COPY examples ./examples
RUN mkdir -p /tmp/pack && npm pack --silent --pack-destination /tmp/pack

FROM ${NODE_IMAGE} AS install
WORKDIR /opt/openapi-mcp-bridge
COPY --from=build /tmp/pack /tmp/pack
RUN echo '{"private":true}' > package.json \
 && npm install --omit=dev --omit=optional --no-audit --no-fund --prefer-offline /tmp/pack/openapi-mcp-bridge-*.tgz

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    OPENAPI_MCP_TRANSPORT=http \
    OPENAPI_MCP_HOST=0.0.0.0 \
    OPENAPI_MCP_PORT=3000 \
    OPENAPI_MCP_METRICS_HOST=0.0.0.0 \
    OPENAPI_MCP_CACHE=0
COPY --from=install /opt/openapi-mcp-bridge/node_modules /opt/openapi-mcp-bridge/node_modules
USER node
EXPOSE 3000
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.OPENAPI_MCP_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/opt/openapi-mcp-bridge/node_modules/openapi-mcp-bridge/dist/cli/main.js", "serve"]
CMD ["/spec/openapi.yaml"]
