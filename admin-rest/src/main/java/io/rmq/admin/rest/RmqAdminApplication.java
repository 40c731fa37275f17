package io.rmq.admin.rest;

import java.util.Set;

import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The Jakarta REST application of the admin endpoints, under {@value #DEFAULT_PATH} of the web
 * application's context root: {@code <context root>/rmq/admin/topics}, ...
 *
 * <p><b>Another path.</b> A {@code servlet-mapping} in the application's {@code WEB-INF/web.xml}
 * whose {@code servlet-name} is this class's name overrides the annotation (Jakarta REST 3.1,
 * section 2.3.2):
 * <pre>{@code
 * <servlet-mapping>
 *   <servlet-name>io.rmq.admin.rest.RmqAdminApplication</servlet-name>
 *   <url-pattern>/ops/rmq/*</url-pattern>
 * </servlet-mapping>
 * }</pre>
 *
 * <p>It serves only its own classes ({@link #getClasses()}), never the application's resources. An
 * application class of the application's own that lists no classes serves every resource of the WAR,
 * this module's too (Jakarta REST 3.1, section 2.3.2): there the admin resource answers 404, so the
 * endpoints are reachable under this application's path only.
 *
 * <p>Every request requires a logged-in user ({@link LoginGate}), every endpoint the container role
 * {@value #ROLE}; every request that changes something, the header {@value CrossSiteGuard#HEADER}
 * ({@link CrossSiteGuard}). What the runtime refuses is answered quietly ({@link QuietErrors}).
 */
@ApplicationPath(RmqAdminApplication.DEFAULT_PATH)
@DeclareRoles(RmqAdminApplication.ROLE)
public class RmqAdminApplication extends Application {

    /** The application path unless {@code web.xml} maps this class elsewhere: {@value}. */
    public static final String DEFAULT_PATH = "/rmq";
    /** The container role every endpoint requires: {@value}. */
    public static final String ROLE = AdminRole.NAME;

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(AdminGate.class, LoginGate.class, CrossSiteGuard.class, QuietErrors.class, RmqAdminResource.class,
                RmqOperationsResource.class, RmqSchedulesResource.class, RmqFlowResource.class);
    }
}
