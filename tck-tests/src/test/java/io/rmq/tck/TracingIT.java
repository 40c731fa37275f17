package io.rmq.tck;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.rules.TracingConfigSource;
import io.rmq.tck.rules.TracingRules;

/**
 * The rules of {@link TracingRules} on Open Liberty with {@code mpTelemetry-2.1}: the deployment's configuration
 * ({@link TracingConfigSource}) turns on the application's OpenTelemetry SDK and exports its spans to an OTLP receiver
 * in the server's JVM. Not run on Weld embedded, which has no OpenTelemetry in this suite: the connector's own
 * {@code TracingIT} covers tracing on Weld, with an in-memory exporter.
 */
@ExtendWith(ArquillianExtension.class)
@DisabledIfSystemProperty(named = "arquillian.launch", matches = "weld-embedded",
        disabledReason = "Weld embedded has no OpenTelemetry in the contract suite; the connector's TracingIT covers Weld")
public class TracingIT extends TracingRules {

    @Deployment
    public static WebArchive deployment() {
        return TckDeployment.of(TracingIT.class).channels(CHANNELS).withOtlpReceiver(TracingConfigSource.class).build();
    }
}
