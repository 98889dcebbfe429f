# syntax=docker/dockerfile:1

# Build stage: a static binary, so that the final image needs no libc.
FROM golang:1.26-bookworm AS build
WORKDIR /src

# Dependencies first: this layer is rebuilt only when go.mod or go.sum change.
COPY go.mod go.sum ./
RUN go mod download

COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/api ./cmd/api \
 && mkdir -p /out/data

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
