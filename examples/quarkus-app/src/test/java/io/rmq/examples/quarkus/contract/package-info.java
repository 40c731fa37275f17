/**
 * The contract suite's rules ({@code io.rmq.tck.rules} in {@code rmq-tck-tests}) on Quarkus: one
 * {@code @QuarkusTest} class per rule class, all in one application started once in the test JVM with
 * the example's embedded Redis and key prefix. The rules' beans come from the {@code rmq-tck-tests} jar
 * (a bean archive) and their channels from {@code io.rmq.tck.rules.ContractChannelsConfigSource}, which
 * the test resources register; the packaged application (target/quarkus-app) has neither.
 */
package io.rmq.examples.quarkus.contract;
