package io.rmq.tck;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.tck.deployment.TckDeployment;
import io.rmq.tck.rules.PauseRules;

/** The rules of {@link PauseRules}, in a deployment of their own. */
@ExtendWith(ArquillianExtension.class)
public class PauseIT extends PauseRules {

    @Deployment
    public static WebArchive deployment() {
        return TckDeployment.of(PauseIT.class).channels(CHANNELS).build();
    }
}
