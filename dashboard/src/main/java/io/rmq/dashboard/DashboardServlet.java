package io.rmq.dashboard;

import static io.rmq.dashboard.i18n.DashboardMessages.msg;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.rmq.engine.admin.SlotCounters;

/**
 * Serves the dashboard under its path: the page ({@code /}), its scripts and styles ({@code /static/...},
 * from this jar, Chart.js included), and three read-only JSON answers of its own: {@code /api/config},
 * {@code /api/rates} (the sampler's history) and {@code /api/lateness}. Everything the page changes goes
 * through the admin endpoints. Registered by {@code DashboardInitializer}, which also protects it with
 * the role {@code rmq-admin}. Owns the {@link RateSampler}: started by {@link #init()}, closed by
 * {@link #destroy()}. Thread-safe.
 */
final class DashboardServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final String STATIC = "io/rmq/dashboard/static/";
    private static final Pattern STATIC_NAME = Pattern.compile("([a-z0-9_-]+/)*[A-Za-z0-9_-]+(\\.[a-z0-9_-]+)*\\.(html|js|css|md)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html;charset=UTF-8",
            "js", "text/javascript;charset=UTF-8", "css", "text/css;charset=UTF-8", "md", "text/plain;charset=UTF-8");
    /** Every script and style comes from this application; no frame may show the page. */
    private static final String POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            + "frame-ancestors 'none'; form-action 'none'";

    private static final List<String> READ_METHODS = List.of("GET", "HEAD");

    private final transient DashboardSettings settings;
    private final transient RateSampler sampler;

    DashboardServlet(DashboardSettings settings, RateSampler sampler) {
        this.settings = settings;
        this.sampler = sampler;
    }

    @Override
    public void init() {
        sampler.start();
    }

    @Override
    public void destroy() {
        sampler.close();
    }

    /**
     * Answers GET and HEAD; any other method 405 (the servlet's default answers TRACE by echoing the request's
     * headers, its credentials and cookies among them, and an unknown method such as PATCH with 501).
     */
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (READ_METHODS.contains(request.getMethod())) {
            super.service(request, response);
            return;
        }
        response.setHeader("Allow", String.join(", ", READ_METHODS));
        response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        json(response, Json.createObjectBuilder().add("status", 405).add("message", msg.notAllowed(request.getMethod())).build());
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Content-Security-Policy", POLICY);
        if (path == null || path.isEmpty()) {
            response.sendRedirect(DashboardSettings.root(request.getContextPath()) + settings.path() + "/");
        } else if (path.equals("/")) {
            file(response, "index.html");
        } else if (path.startsWith("/static/") && STATIC_NAME.matcher(path.substring(8)).matches()) {
            file(response, path.substring(8));
        } else if (path.equals("/api/config")) {
            json(response, config(DashboardSettings.root(request.getContextPath())));
        } else if (path.equals("/api/rates")) {
            json(response, rates());
        } else if (path.equals("/api/lateness")) {
            json(response, LatenessView.read());
        } else {
            notFound(response, path);
        }
    }

    private void file(HttpServletResponse response, String name) throws IOException {
        try (InputStream in = DashboardServlet.class.getClassLoader().getResourceAsStream(STATIC + name)) {
            if (in == null) {
                notFound(response, "/static/" + name);
                return;
            }
            response.setContentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
            response.setHeader("Cache-Control", "no-cache");
            try (OutputStream out = response.getOutputStream()) {
                in.transferTo(out);
            }
        }
    }

    private JsonObject config(String contextPath) {
        return Json.createObjectBuilder()
                .add("adminPath", contextPath + settings.adminPath())
                .add("dashboardPath", contextPath + settings.path())
                .add("sampleSeconds", settings.sample().toSeconds())
                .add("historyMinutes", settings.history().toMinutes())
                .build();
    }

    /** {@code {"sampleSeconds", "sampledAt", "failure", "counters": [names], "topics": {name: [[time, rate, ...], ...]}}}. */
    JsonObject rates() {
        JsonArrayBuilder names = Json.createArrayBuilder();
        SlotCounters.NAMES.forEach(names::add);
        JsonObjectBuilder topics = Json.createObjectBuilder();
        sampler.history().rates().forEach((topic, points) -> topics.add(topic, points(points)));
        JsonObjectBuilder out = Json.createObjectBuilder()
                .add("sampleSeconds", settings.sample().toSeconds())
                .add("sampledAt", sampler.lastSampleMillis())
                .add("counters", names)
                .add("topics", topics);
        String failure = sampler.failure();
        return (failure == null ? out.addNull("failure") : out.add("failure", failure)).build();
    }

    private static JsonArrayBuilder points(List<RateHistory.RatePoint> points) {
        JsonArrayBuilder out = Json.createArrayBuilder();
        for (RateHistory.RatePoint p : points) {
            JsonArrayBuilder point = Json.createArrayBuilder().add(p.atMillis());
            for (double rate : p.perSecond()) {
                point.add(Math.round(rate * 100) / 100.0);
            }
            out.add(point);
        }
        return out;
    }

    private static void json(HttpServletResponse response, JsonObject body) throws IOException {
        response.setContentType("application/json;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getOutputStream().write(body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void notFound(HttpServletResponse response, String path) throws IOException {
        response.setStatus(HttpServletResponse.SC_NOT_FOUND);
        json(response, Json.createObjectBuilder().add("status", 404).add("message", msg.notFound(path)).build());
    }
}
