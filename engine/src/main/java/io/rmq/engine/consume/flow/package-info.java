/**
 * Flow control of a consumer: the gate that holds a consumer's pops to its topic's rate limit, cluster-wide, by
 * reserving permits of the limiter kept in Redis ({@code flow_acquire.lua}). Used by the consumer's loop only
 * when a limit is set; see {@code docs/flow-control.md}.
 */
package io.rmq.engine.consume.flow;
