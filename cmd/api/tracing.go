package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/asapjs/fiber-template/platform/router"
)

// tracerProvider sets up OpenTelemetry tracing from the standard OTEL_*
// variables alone, read by the SDK and autoexport: OTEL_TRACES_EXPORTER
// (none when unset, otlp or console), OTEL_EXPORTER_OTLP_*,
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and
// OTEL_BSP_*. It returns nil when no exporter is configured, so an
// untraced service pays nothing; otherwise the provider, also set as otel's
// global with the W3C propagator, and its shutdown, which flushes the spans
// still buffered.
func tracerProvider(ctx context.Context, logger *slog.Logger) (trace.TracerProvider, func(context.Context) error, error) {
	exp, err := autoexport.NewSpanExporter(ctx, autoexport.WithFallbackSpanExporter(
		func(context.Context) (sdktrace.SpanExporter, error) { return nil, nil }))
	if err != nil {
		return nil, nil, fmt.Errorf("traces: %w", err)
	}
	if exp == nil || autoexport.IsNoneSpanExporter(exp) {
		return nil, nil, nil
	}
	// The SDK's default resource: OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES, else unknown_service:<binary>.
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(router.Propagator)
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		logger.Warn("traces", slog.Any("error", err))
	}))
	return tp, tp.Shutdown, nil
}

// traceFlushTimeout bounds sending the last spans on exit.
const traceFlushTimeout = 5 * time.Second

// flushTraces shuts the tracer provider down, sending the spans it holds.
func flushTraces(shutdown func(context.Context) error, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), traceFlushTimeout)
	defer cancel()
	if err := shutdown(ctx); err != nil {
		logger.Warn("flush traces", slog.Any("error", err))
	}
}
