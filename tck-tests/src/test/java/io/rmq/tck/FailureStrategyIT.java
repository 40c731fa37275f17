package io.rmq.tck;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.rules.FailureStrategyRules;

/** The rules of {@link FailureStrategyRules}, in a deployment of their own. */
@ExtendWith(ArquillianExtension.class)
public class FailureStrategyIT extends FailureStrategyRules {

    @Deployment
    public static WebArchive deployment() {
        return TckDeployment.of(FailureStrategyIT.class).channels(CHANNELS).build();
    }
}
