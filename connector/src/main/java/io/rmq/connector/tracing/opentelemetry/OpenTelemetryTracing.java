package io.rmq.connector.tracing.opentelemetry;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.connector.tracing.RmqTracing;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.scripts.TraceEntry;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;

/**
 * {@link RmqTracing} through the OpenTelemetry API, with the tracer {@value #SCOPE}: the only class of the connector's
 * tracing that refers to the API, loaded only when it is present. Spans follow the OpenTelemetry semantic conventions
 * for messaging ({@code messaging.system} is {@value #SYSTEM}), with attributes of the queue's own under {@code rmq.}.
 * Thread-safe.
 */
public final class OpenTelemetryTracing implements RmqTracing {

    /** The instrumentation scope of the connector's spans. */
    public static final String SCOPE = "io.rmq.connector";
    /** The value of {@code messaging.system}. */
    public static final String SYSTEM = "redis-rmq";

    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<Long> BODY_SIZE = AttributeKey.longKey("messaging.message.body.size");
    static final AttributeKey<String> CHANNEL = AttributeKey.stringKey("rmq.channel");
    static final AttributeKey<String> TOPIC_TYPE = AttributeKey.stringKey("rmq.topic.type");
    static final AttributeKey<Long> SLOT = AttributeKey.longKey("rmq.slot");
    static final AttributeKey<Boolean> MERGED = AttributeKey.booleanKey("rmq.merged");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("rmq.attempt");
    static final AttributeKey<Long> MERGED_SENDS = AttributeKey.longKey("rmq.merged_sends");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("rmq.outcome");
    static final AttributeKey<String> LINK = AttributeKey.stringKey("rmq.link");

    private static final Attributes SEND_LINK = Attributes.of(LINK, "send");
    private static final Attributes ATTEMPT_LINK = Attributes.of(LINK, "previous-attempt");

    private final Tracer tracer;

    OpenTelemetryTracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    /**
     * The tracing through the CDI bean {@link OpenTelemetry} of the running container, else through
     * {@link GlobalOpenTelemetry}; {@code null} when the one found has the no-op tracer provider.
     */
    public static RmqTracing create() {
        OpenTelemetry openTelemetry = null;
        String source = "CDI bean";
        try {
            Instance<OpenTelemetry> bean = CDI.current().select(OpenTelemetry.class);
            if (bean.isResolvable()) {
                openTelemetry = bean.get();
            }
        } catch (IllegalStateException | NoClassDefFoundError noContainer) {
            // no CDI container running: the global instance
        }
        if (openTelemetry == null) {
            openTelemetry = GlobalOpenTelemetry.get();
            source = "GlobalOpenTelemetry";
        }
        if (openTelemetry.getTracerProvider() == TracerProvider.noop()) {
            return null;
        }
        RmqLogging.log.tracingBound(source, describe(openTelemetry));
        return new OpenTelemetryTracing(openTelemetry);
    }

    /** Which instance: its class, and its tracer provider's class and identity (a proxy's class says little). */
    static String describe(OpenTelemetry openTelemetry) {
        TracerProvider provider = openTelemetry.getTracerProvider();
        return openTelemetry.getClass().getName() + " with the tracer provider " + provider.getClass().getName() + "@"
                + Integer.toHexString(System.identityHashCode(provider));
    }

    @Override
    public boolean active() {
        return true;
    }

    @Override
    public SendSpan send(String channel, TopicDefinition topic) {
        Span span = tracer.spanBuilder("send " + topic.name()).setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MESSAGING_SYSTEM, SYSTEM).setAttribute(DESTINATION, topic.name())
                .setAttribute(OPERATION_TYPE, "send").setAttribute(OPERATION_NAME, "send")
                .setAttribute(CHANNEL, channel).setAttribute(TOPIC_TYPE, topic.type().name()).startSpan();
        return new SendSpan() {
            @Override
            public String traceparent() {
                return OpenTelemetryTracing.traceparent(span.getSpanContext());
            }

            @Override
            public void sent(SendResult result) {
                span.setAttribute(SLOT, result.slot()).setAttribute(PARTITION, Integer.toString(result.slot()))
                        .setAttribute(MERGED, result.merged()).end();
            }

            @Override
            public void failed(Throwable failure) {
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage())).end();
            }
        };
    }

    @Override
    public ProcessSpan process(String channel, Delivery delivery, int maxLinks) {
        String topic = delivery.topic();
        SpanBuilder builder = tracer.spanBuilder("process " + topic).setSpanKind(SpanKind.CONSUMER)
                .setAttribute(MESSAGING_SYSTEM, SYSTEM).setAttribute(DESTINATION, topic)
                .setAttribute(OPERATION_TYPE, "process").setAttribute(OPERATION_NAME, "process")
                .setAttribute(CHANNEL, channel).setAttribute(SLOT, delivery.slot())
                .setAttribute(PARTITION, Integer.toString(delivery.slot()))
                .setAttribute(ATTEMPT, delivery.attempt())
                .setAttribute(BODY_SIZE, delivery.content().length);
        TraceEntry entry = delivery.trace();
        Context parent = Context.root();
        if (entry != null) {
            builder.setAttribute(MERGED_SENDS, entry.sends());
            if (entry.sends() == 1 && entry.sendContexts().size() == 1) {
                SpanContext send = remote(entry.sendContexts().get(0));
                if (send.isValid()) {
                    parent = Context.root().with(Span.wrap(send));
                }
            } else {
                int linked = 0;
                for (String context : entry.sendContexts()) {
                    SpanContext send = remote(context);
                    if (linked < maxLinks && send.isValid()) {
                        builder.addLink(send, SEND_LINK);
                        linked++;
                    }
                }
            }
            if (entry.attemptContext() != null) {
                SpanContext previous = remote(entry.attemptContext());
                if (previous.isValid()) {
                    builder.addLink(previous, ATTEMPT_LINK);
                }
            }
        }
        Span span = builder.setParent(parent).startSpan();
        return new ProcessSpan() {
            @Override
            public String traceparent() {
                return OpenTelemetryTracing.traceparent(span.getSpanContext());
            }

            @Override
            public void settled(String outcome, Throwable failure) {
                span.setAttribute(OUTCOME, outcome);
                if (failure != null) {
                    span.recordException(failure);
                    span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
                }
                span.end();
            }
        };
    }

    /** The W3C traceparent of a span context, or {@code null} when it is not valid (a no-op span). */
    static String traceparent(SpanContext context) {
        if (!context.isValid()) {
            return null;
        }
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }

    /** The remote span context of a W3C traceparent; an invalid one when it is not in that form. */
    static SpanContext remote(String traceparent) {
        String[] parts = traceparent.split("-");
        if (parts.length != 4 || parts[3].length() != 2) {
            return SpanContext.getInvalid();
        }
        try {
            return SpanContext.createFromRemoteParent(parts[1], parts[2], TraceFlags.fromHex(parts[3], 0),
                    TraceState.getDefault());
        } catch (RuntimeException notHex) {
            return SpanContext.getInvalid();
        }
    }
}
