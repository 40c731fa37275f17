package io.rmq.engine.support;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Hides the credentials of a Redis URI before it reaches a log line or an error message. Stateless. */
public final class UriCredentials {

    private static final Pattern USER_INFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)([^@/?#]*)@");
    /** The user info of a further seed of a comma-separated list ({@code ...,redis://user:pw@host2}). */
    private static final Pattern SEED_USER_INFO = Pattern.compile("(,\\s*[A-Za-z][A-Za-z0-9+.-]*://)[^@/?#,]*@");

    private UriCredentials() {
    }

    /** The URI with any user info (user name and password) replaced by {@code ***}; {@code null} stays {@code null}. */
    public static String mask(String uri) {
        if (uri == null) {
            return null;
        }
        Matcher m = USER_INFO.matcher(uri);
        String masked = m.find() ? m.group(1) + "***@" + uri.substring(m.end()) : uri;
        return SEED_USER_INFO.matcher(masked).replaceAll("$1***@");
    }

    /** Whether the URI carries user info (a password, possibly with a user name) before its host. */
    public static boolean hasUserInfo(String uri) {
        return uri != null && USER_INFO.matcher(uri).find();
    }
}
