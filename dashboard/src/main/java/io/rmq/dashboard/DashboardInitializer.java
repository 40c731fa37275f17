package io.rmq.dashboard;

import static io.rmq.dashboard.i18n.DashboardLogging.log;

import java.util.Set;

import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.rmq.admin.rest.AdminRole;
import io.rmq.admin.rest.AdminSettings;

/**
 * Adds the dashboard to the web application that carries this jar, when {@value DashboardSettings#ENABLED}
 * is {@code true} (read from MicroProfile Config at start): a servlet under
 * {@value DashboardSettings#PATH} (default {@value DashboardSettings#DEFAULT_PATH}) that only users in the
 * container role {@value AdminRole#NAME} may reach, and its rate sampler. Off, it adds nothing.
 * A setting that cannot be used fails the application's start, naming the property (RMQ-0980).
 * Registered in {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}; stateless.
 */
public final class DashboardInitializer implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
        Config config = ConfigProvider.getConfig(context.getClassLoader());
        DashboardSettings settings;
        try {
            settings = DashboardSettings.from(config);
        } catch (IllegalArgumentException bad) {
            throw new ServletException(bad.getMessage(), bad);
        }
        if (!settings.enabled()) {
            log.off(DashboardSettings.ENABLED);
            return;
        }
        if (!AdminSettings.enabled(config)) {
            log.adminOff(AdminSettings.ENABLED);
        }
        RateSampler sampler = new RateSampler(() -> AdminSettings.from(ConfigProvider.getConfig(context.getClassLoader())),
                settings.sample(), settings.history(), System::currentTimeMillis);
        ServletRegistration.Dynamic servlet = context.addServlet("rmq-dashboard", new DashboardServlet(settings, sampler));
        servlet.addMapping(settings.path(), settings.path() + "/*");
        servlet.setLoadOnStartup(1);
        servlet.setServletSecurity(new ServletSecurityElement(new HttpConstraintElement(
                TransportGuarantee.NONE, AdminRole.NAME)));
        context.declareRoles(AdminRole.NAME);
        log.serving(DashboardSettings.root(context.getContextPath()) + settings.path(), AdminRole.NAME, settings.sample().toSeconds(),
                settings.history().toMinutes());
    }
}
