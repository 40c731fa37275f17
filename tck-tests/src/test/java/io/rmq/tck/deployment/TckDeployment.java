package io.rmq.tck.deployment;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import io.rmq.tck.rules.ContractChannels;
import io.rmq.tck.support.RedisProbe;
import io.rmq.testing.otlp.OtlpReceiver;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Builds the application a contract test deploys: a WAR as a user would build it, with
 * <ul>
 *   <li>the test class and its nested beans, the rule class it extends (if any) with its nested beans, and the
 *       in-container support ({@code io.rmq.tck.support}, {@link ContractChannels});</li>
 *   <li>{@code WEB-INF/beans.xml} and {@code META-INF/microprofile-config.properties} holding the
 *       channels of the test, the Redis URI and a key prefix of the deployment's own (connector-level
 *       attributes {@code mp.messaging.connector.smallrye-redis-rmq.redis-uri} and {@code .key-prefix});</li>
 *   <li>{@code WEB-INF/lib}: what users are told to add, the CDI extension ({@code rmq-cdi-extension},
 *       found by the container through its {@code META-INF/services}) with the connector and their runtime
 *       dependencies, and the assertion libraries, copied by the build into the directory named by the
 *       system property {@value #LIBS_PROPERTY}.</li>
 * </ul>
 * The runtime (MicroProfile Reactive Messaging, Config, CDI) is the container's. Runs on the test
 * client only, in a {@code @Deployment} method: it starts the JVM's {@link RedisTestServer} on first use.
 */
public final class TckDeployment {

    /** The connector under test. */
    public static final String CONNECTOR = ContractChannels.CONNECTOR;
    /** The system property naming the directory of the deployments' libraries. */
    public static final String LIBS_PROPERTY = "rmq.tck.libs";
    /** The system property naming the directory of the OTLP receiver's libraries ({@link #withOtlpReceiver}). */
    public static final String OTLP_LIBS_PROPERTY = "rmq.tck.otlpLibs";

    private static final String BEANS_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <beans xmlns="https://jakarta.ee/xml/ns/jakartaee"
                   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                   xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/beans_4_0.xsd"
                   version="4.0" bean-discovery-mode="annotated">
            </beans>
            """;

    private final String name;
    private final Class<?> testClass;
    private final Map<String, String> config = new LinkedHashMap<>();
    private final List<Class<? extends ConfigSource>> configSources = new ArrayList<>();
    private boolean otlpReceiver;

    private TckDeployment(Class<?> testClass, String name) {
        this.testClass = testClass;
        this.name = name;
        config.put("mp.messaging.connector." + CONNECTOR + ".redis-uri", RedisTestServer.shared().uri());
        config.put("mp.messaging.connector." + CONNECTOR + ".key-prefix", keyPrefix(name));
    }

    /**
     * The deployment of {@code testClass}, named after it; its topics' keys start with
     * {@code tck:<name>:}, so deployments never share a key.
     */
    public static TckDeployment of(Class<?> testClass) {
        return new TckDeployment(testClass, testClass.getSimpleName());
    }

    /** A second deployment of {@code testClass}, with a name (and key prefix) of its own. */
    public static TckDeployment of(Class<?> testClass, String name) {
        return new TckDeployment(testClass, testClass.getSimpleName() + "-" + name);
    }

    /** The key prefix of a deployment named {@code name}. */
    public static String keyPrefix(String name) {
        return "tck:" + name + ":";
    }

    /** An incoming channel of this connector, with attribute/value pairs. */
    public TckDeployment incoming(String channel, Object... attributes) {
        return channels(ContractChannels.declare().incoming(channel, attributes));
    }

    /** An outgoing channel of this connector, with attribute/value pairs. */
    public TckDeployment outgoing(String channel, Object... attributes) {
        return channels(ContractChannels.declare().outgoing(channel, attributes));
    }

    /** The channels a contract rule class declares. */
    public TckDeployment channels(ContractChannels channels) {
        config.putAll(channels.properties());
        return this;
    }

    /** Any other configuration property; replaces a value set before. */
    public TckDeployment config(String key, Object value) {
        config.put(key, String.valueOf(value));
        return this;
    }

    /**
     * Adds the test support's OTLP receiver ({@code io.rmq.testing.otlp}) with its libraries (from the directory
     * named by {@value #OTLP_LIBS_PROPERTY}), and registers {@code source}, which starts it and points the runtime's
     * exporter at it, as a configuration source of the application.
     */
    public TckDeployment withOtlpReceiver(Class<? extends ConfigSource> source) {
        otlpReceiver = true;
        configSources.add(source);
        return this;
    }

    /** The WAR. */
    public WebArchive build() {
        Class<?> rules = testClass.getSuperclass();
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClass(testClass) // with its nested classes: the test's beans
                .addClass(ContractChannels.class)
                .addPackage(RedisProbe.class.getPackage())
                .addAsWebInfResource(new StringAsset(BEANS_XML), "beans.xml")
                .addAsResource(new StringAsset(properties()), "META-INF/microprofile-config.properties");
        if (rules != Object.class) {
            war.addClass(rules); // a contract rule class (io.rmq.tck.rules), with its beans
        }
        if (otlpReceiver) {
            war.addPackage(OtlpReceiver.class.getPackage()).addAsLibraries(libraries(OTLP_LIBS_PROPERTY));
        }
        if (!configSources.isEmpty()) {
            war.addClasses(configSources.toArray(Class[]::new))
                    .addAsResource(new StringAsset(configSources.stream().map(Class::getName)
                            .collect(Collectors.joining("\n", "", "\n"))),
                            "META-INF/services/" + ConfigSource.class.getName());
        }
        for (File lib : libraries(LIBS_PROPERTY)) {
            if (isBeanArchive(lib)) {
                // as an archive, so that a container that reads the WAR's structure (Weld embedded) sees its beans.xml
                war.addAsLibrary(ShrinkWrap.createFromZipFile(JavaArchive.class, lib));
            } else {
                war.addAsLibrary(lib);
            }
        }
        return war;
    }

    private static boolean isBeanArchive(File jar) {
        try (ZipFile zip = new ZipFile(jar)) {
            return zip.getEntry("META-INF/beans.xml") != null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
    }

    private String properties() {
        return config.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "# generated by io.rmq.tck.deployment.TckDeployment\n", "\n"));
    }

    private static File[] libraries(String property) {
        String dir = System.getProperty(property);
        File[] jars = dir == null ? null : new File(dir).listFiles((d, n) -> n.endsWith(".jar"));
        if (jars == null || jars.length == 0) {
            throw new IllegalStateException("no deployment libraries: the system property " + property
                    + " must name a directory with the deployments' jars (" + dir + "); run the suite with Maven"
                    + " (mvn -pl tck-tests -am verify), which copies them into target");
        }
        Arrays.sort(jars, Comparator.comparing(File::getName));
        return jars;
    }
}
