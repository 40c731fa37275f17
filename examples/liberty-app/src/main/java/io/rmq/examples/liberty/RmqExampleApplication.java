package io.rmq.examples.liberty;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The REST API of the example, under {@code /api} (see {@link ExampleResource}). */
@ApplicationPath("/api")
public class RmqExampleApplication extends Application {
}
