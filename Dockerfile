# syntax=docker/dockerfile:1

# Build stage: a static binary, so that the final image needs no libc. It
# runs on the builder's own platform and cross-compiles for the target one
# (docker buildx build --platform linux/amd64,linux/arm64 .), which Go does
# without emulation.
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
WORKDIR /src

# Dependencies first: this layer is rebuilt only when a go.mod or go.sum
# changes, and the module cache mount keeps downloads across builds. The
# platform is a module of its own that go.mod replaces with ./platform.
COPY go.mod go.sum ./
COPY platform/go.mod platform/go.sum ./platform/
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download

COPY . .
ARG VERSION=dev
ARG TARGETOS
ARG TARGETARCH
# The build cache mount keeps compiled packages (the SQLite driver takes
# most of a cold build) across builds: a change recompiles only what it
# touches.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} \
    go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/api ./cmd/api \
 && mkdir -p /out/data

# Test stage (docker compose --profile test): the whole suite as CI runs it,
# with the browser the docs UI tests need, the PostgreSQL server binaries
# the outage and replica tests run a server of their own from, and Node.js
# 20 for Redocly and the DBML check (Debian 12's nodejs is 18, too old: it
# comes from the official image instead).
FROM node:20.20.2-bookworm-slim AS node
FROM golang:1.26-bookworm AS test
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium postgresql \
 && rm -rf /var/lib/apt/lists/*
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && node --version && npm --version
WORKDIR /src

# Final stage: distroless static has CA certificates and time zone data,
# no shell and no package manager, and runs as the nonroot user (65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/api /api
# The SQLite file lives in a volume the nonroot user owns: the image's root
# file system is not writable for it. Set DATABASE_URL to a postgres:// URL
# to use PostgreSQL instead.
COPY --from=build --chown=nonroot:nonroot /out/data /data
VOLUME /data

ENV APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/app.db
USER nonroot:nonroot
EXPOSE 8080

# No shell or curl in the image: the binary probes itself.
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 CMD ["/api", "healthcheck"]
ENTRYPOINT ["/api"]
CMD ["serve"]
