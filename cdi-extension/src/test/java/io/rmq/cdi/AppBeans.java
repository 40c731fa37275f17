package io.rmq.cdi;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/** Application beans of the extension tests. */
final class AppBeans {

    private AppBeans() {
    }

    /** Sends strings through the outgoing channel "out". */
    @ApplicationScoped
    public static class Sender {
        @Inject
        @Channel("out")
        Emitter<String> emitter;

        /** Completes when the connector has acked (stored) the message. */
        public CompletionStage<Void> send(String payload) {
            return emitter.send(payload);
        }
    }

    /** Records the payloads of the incoming channel "in". */
    @ApplicationScoped
    public static class Receiver {
        final List<String> payloads = new CopyOnWriteArrayList<>();

        public List<String> payloads() {
            return payloads;
        }

        @Incoming("in")
        public void consume(String payload) {
            payloads.add(payload);
        }
    }

    /** Records the payloads of the incoming channel "in2". */
    @ApplicationScoped
    public static class SecondReceiver {
        final List<String> payloads = new CopyOnWriteArrayList<>();

        public List<String> payloads() {
            return payloads;
        }

        @Incoming("in2")
        public void consume(String payload) {
            payloads.add(payload);
        }
    }
}
