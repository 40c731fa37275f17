package io.rmq.admin.rest;

/** The container role that every admin endpoint and the dashboard require. */
public final class AdminRole {

    /** The role's name: {@value}. */
    public static final String NAME = "rmq-admin";

    private AdminRole() {
    }
}
