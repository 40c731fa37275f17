/**
 * Serial consumption per slot across a cluster, coordinated through ZooKeeper (Apache Curator).
 *
 * <p>Each coordinated {@link io.rmq.engine.consume.TopicConsumer} is a worker of its topic
 * ({@link io.rmq.engine.coordination.SlotCoordinator}); one elected worker leads
 * ({@link io.rmq.engine.coordination.SlotLeader}) and assigns every slot to exactly one live worker
 * ({@link io.rmq.engine.coordination.SlotBalancer}), writing a
 * {@link io.rmq.engine.coordination.SlotAssignment} that anyone can read with
 * {@link io.rmq.engine.coordination.SlotAssignments}. Each slot's ownership carries an epoch that the
 * pop script checks against the one recorded in Redis, so a worker that lost a slot pops nothing from
 * it any more; a new owner pops a slot only once its previous owner's messages have left the prepare
 * queue. Consumers of one client share a ZooKeeper session ({@link io.rmq.engine.coordination.ZooKeeperSessions}).
 * Configured with {@link io.rmq.engine.coordination.CoordinationOptions}; see {@code docs/coordination.md}.
 */
package io.rmq.engine.coordination;
