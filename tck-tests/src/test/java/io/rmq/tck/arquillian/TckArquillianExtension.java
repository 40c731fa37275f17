package io.rmq.tck.arquillian;

import org.jboss.arquillian.container.test.spi.client.deployment.ApplicationArchiveProcessor;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * The suite's Arquillian extension (client side): registers {@link WeldEmbeddedRuntime} when the Weld
 * embedded container is the one on the class path (the failsafe execution {@code weld-embedded}).
 */
public class TckArquillianExtension implements LoadableExtension {

    static final String WELD_EMBEDDED_CONTAINER = "org.jboss.arquillian.container.weld.embedded.WeldMockContainer";

    @Override
    public void register(ExtensionBuilder builder) {
        if (isPresent(WELD_EMBEDDED_CONTAINER)) {
            builder.service(ApplicationArchiveProcessor.class, WeldEmbeddedRuntime.class);
        }
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, TckArquillianExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
