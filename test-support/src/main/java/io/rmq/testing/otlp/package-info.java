/**
 * An OTLP/HTTP receiver of exported spans ({@link io.rmq.testing.otlp.OtlpReceiver}) for tests that check what an
 * application's OpenTelemetry SDK exports, whatever runtime configures that SDK (Open Liberty's
 * {@code mpTelemetry}, Quarkus's OpenTelemetry extension, the SDK's autoconfiguration).
 */
package io.rmq.testing.otlp;
