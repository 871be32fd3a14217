package otel

import (
	"sync"

	"github.com/go-logr/logr"
	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// DefaultServiceName is service.name when OTEL_SERVICE_NAME is unset.
const DefaultServiceName = "ohwatch"

// scopeName is the instrumentation scope of every span.
const scopeName = "ohwatch/otel"

// NewProvider returns a tracer provider that samples every span, gives
// each the ids the builder chose, and hands ended spans to p. The resource
// is only the service name and the SDK's own attributes, so the same
// conversation exported twice gives identical spans. The limits are raised
// from the SDK's defaults (128 events a span) so a long turn keeps all of
// its status changes, and cap an attribute at a size backends accept.
func NewProvider(p sdktrace.SpanProcessor, serviceName, version string) *sdktrace.TracerProvider {
	quietOnce.Do(quiet)
	if serviceName == "" {
		serviceName = DefaultServiceName
	}
	res := sdkresource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName(serviceName),
		semconv.ServiceVersion(version),
		attribute.String("telemetry.sdk.language", "go"),
		attribute.String("telemetry.sdk.name", "opentelemetry"))
	limits := sdktrace.NewSpanLimits()
	limits.AttributeValueLengthLimit = ContentCap + 64
	limits.EventCountLimit = 1024
	return sdktrace.NewTracerProvider(
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithIDGenerator(idGenerator{}),
		sdktrace.WithResource(res),
		sdktrace.WithRawSpanLimits(limits),
		sdktrace.WithSpanProcessor(p),
	)
}

var quietOnce sync.Once

// quiet stops the SDK's global error handler and logger from writing to
// stderr, which would tear through the TUI: what goes wrong with an export
// is counted by the sink and said once at the end.
func quiet() {
	otelapi.SetErrorHandler(otelapi.ErrorHandlerFunc(func(error) {}))
	otelapi.SetLogger(logr.Discard())
}

// Tracer is the tracer of a provider made by NewProvider.
func Tracer(tp trace.TracerProvider, version string) trace.Tracer {
	return tp.Tracer(scopeName, trace.WithInstrumentationVersion(version),
		trace.WithSchemaURL(semconv.SchemaURL))
}
