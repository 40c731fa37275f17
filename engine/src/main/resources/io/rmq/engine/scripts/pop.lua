--[[
  pop: the prepare phase of two-phase consumption. Atomically moves up to `count` due members from
  a slot's store queue to its prepare queue, scoring each with its deadline (now + prepare timeout).

  Order: RANGE_MERGE and FIXED_TIME pop members whose score <= now, lowest score first;
  PRIORITY pops the highest scores first. A member that is already in the prepare queue (an
  earlier copy still being consumed) is left in the store queue until that copy is committed or
  rolled back, so one member is never in two consumers' hands.

  Expiry (KEYS[8..11] given): a member whose expiry has passed (expiresAt <= now, in the expiry sorted set)
  is never moved to the prepare queue. Before popping, the call removes up to 2 * count such members from
  the store queue, due or not, with their attempts, failure records and expiry entries, and counts them
  (field expired; with ARGV[6] = 1 they are also kept in the dead queue with the failure "expired" and
  counted in dead). When it found 2 * count of them, more may have expired: it pops nothing and reports next
  = 0, so that the caller pops again. A popped member's expiry moves to the held expiry hash while it is in
  flight: a copy being consumed does not expire; rollback.lua and release.lua put it back. When the expiry
  set is empty this costs one ZCARD.

  Trace contexts (KEYS[12] given): members expired by the call lose their trace entries. With ARGV[7] = 1 (the
  consumer traces), each popped member's trace entry (lib/trace.lua) is removed from the trace hash and returned
  after its attempt ('' for none): the consumer holds it while the delivery is in flight and gives it back to
  rollback.lua or release.lua; a copy sent meanwhile starts an entry of its own. When the hash is empty this costs
  one HLEN; without ARGV[7] = 1 the hash is not read, and the entries stay until commit.lua removes them.

  Ownership (coordination on, epoch > 0): the owner hash records the epoch under which the slot is
  owned. A caller with an older epoch is fenced: it pops nothing (it lost the slot, perhaps without
  knowing yet). A caller with a newer epoch takes the slot over: its epoch and worker id are
  recorded, and when the prepare queue still holds members popped under an earlier epoch a handover
  is pending: nothing is popped until those members have left the prepare queue (committed,
  rolled back or released by the previous owner, or rolled back by the sweeper at their deadline),
  so two owners never consume a slot at the same time. Epoch 0 (coordination off) skips all of this
  and leaves the owner hash untouched.

  Copies in flight among the candidates: with the prepare queue holding members, the candidates usually enter it
  first, by ZADD NX with the call's deadline, and are looked up (ZMSCORE) only when fewer were added than offered: a
  member then scored with the call's deadline is one the call added, any other a copy in flight whose deadline NX
  left alone (sortCandidates below says when the look-up comes first instead). Keys written after the members move
  (the counters, blocked, attempts, origin and trace hashes) have their types checked before anything moves.

  Blocked copies: a member left in the store queue because a copy of it is in flight is recorded in the slot's
  blocked hash blocked{<prefix><topic>_<slot>} (a name built from KEYS[1]; lib/blocked.lua), so that the commit of
  the copy wakes the consumers; a member this call moves loses its entry (one HLEN while the hash is empty).

  Nothing due (a consumer that has caught up polls, or a wake notice reaches a consumer after another took the
  members): without expiry entries or fair share, the store queue's first member and its score (one ZRANGE, or
  ZREVRANGE for PRIORITY) tell it before the keys written when members move are read, and the call returns with next;
  when that member is due it is the first round's probe.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}: member -> failed deliveries so far
  KEYS[4]  origin hash     origin{<prefix><topic>_<slot>}: member -> score when popped (PRIORITY only)
  KEYS[5]  owner hash      owner{<prefix><topic>_<slot>}: epoch, worker, since (Redis ms) and, while
                           a handover is pending, handover = 1
  KEYS[6]  pause flag      paused{<prefix><topic>_<slot>}: exists while consumption is paused
  KEYS[7]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           fields delivered (members popped), expired and dead (members expired)
  KEYS[8]  expiry set      expiry{<prefix><topic>_<slot>}: member -> expiresAt, ms (optional, with 9..11)
  KEYS[9]  held expiry     held-expiry{<prefix><topic>_<slot>}: member in flight -> expiresAt
  KEYS[10] dead queue      dead{<prefix><topic>_<slot>}
  KEYS[11] failures hash   failures{<prefix><topic>_<slot>}
  KEYS[12] trace hash      trace{<prefix><topic>_<slot>}: member -> trace entry (optional, with 8..11)

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  count           most members to move (>= 0); 0 only claims the slot (the ownership step)
  ARGV[3]  prepare timeout ms a popped member may stay in the prepare queue before it is rolled back
  ARGV[4]  epoch           the caller's ownership epoch of this slot (> 0), or 0 without coordination
  ARGV[5]  worker          the caller's worker id, recorded with a new epoch (for operators)
  ARGV[6]  expired to dead 1: keep expired members in the dead queue; 0 or absent: drop them
  ARGV[7]  traces          1: return (and take out) the popped members' trace entries; 0 or absent: do not
  ARGV[8..] fair share     optional: 'FAIR', k (the index in KEYS of the tenants set, then the fair hash and the
                           in-flight tenant hash), the default weight, n, then n pairs tenant, weight (tenants
                           encoded as lib/fair.lua says). The rounds then run per tenant of the plan (lib/fair.lua:
                           up to 16 tenants with the lowest passes, `count` shared by stride over their weights), each
                           on that tenant's queue, then once more for what tenants with too little due left over;
                           order (by score, or by priority) holds within a tenant, not across tenants. A member
                           popped from a tenant queue is recorded in the in-flight tenant hash, so that its
                           settlement puts it back there. next also covers the visited tenants' queues. Without
                           'FAIR' the tenant keys are not read: the store queue alone is popped.

  Returns  { status, now, next, detail, expired, held, attempts, members, runs, failures, traces, keys }: the header,
           then, when members were popped, five lists in the members' order (lib/pop_reply.lua):
           status   0 POPPED: the caller may pop (owner, or no coordination); members follow
                    1 HANDOVER: the caller owns the slot, but members popped under an earlier epoch
                      are still in the prepare queue; nothing popped
                   -1 FENCED: the slot is owned under a newer epoch; nothing popped
                    2 PAUSED: consumption of the slot is paused (the ownership step still ran);
                      nothing popped
           now      the Redis clock in ms
           next     0 when `count` members were popped (more may be due; also for a claim);
                    otherwise ms until the earliest member not yet due (timed types), or -1 when
                    nothing else is waiting (blocked duplicates are woken by their commit/rollback)
                    or nothing was popped (HANDOVER, FENCED); 1000 when PAUSED (poll again in 1 s)
           detail   POPPED: the caller's epoch (0 without coordination); HANDOVER: members still in
                    the prepare queue; FENCED: the epoch the slot is owned under
           expired  members this call expired (0 unless POPPED)
           held     1 when a popped member had an expiry (now in the held expiry hash), else 0
           attempts 1 when some member of the slot has failed before (its attempts hash is not empty): the
                    failures list is given; 0 when every popped member is on its first delivery
           members  the members popped
           runs     their store scores, as strings, in runs: score, how many members in a row have it, score, ...
           failures with attempts = 1, each member's failed deliveries so far (the attempts hash's count; nil for
                    none, and a count that is not a number counts as none); else empty
           traces   with traces (ARGV[7] = 1), each member's trace entry (nil or missing for none); else empty
           keys     pop_flow.lua: each member's key; pop.lua: empty
]]
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local originKey   = KEYS[4]
local ownerKey    = KEYS[5]
local pausedKey   = KEYS[6]
local countersKey = KEYS[7]
local topicType   = ARGV[1]
local count       = tonumber(ARGV[2])
local timeout     = tonumber(ARGV[3])
local epoch       = tonumber(ARGV[4] or '0')
local worker      = ARGV[5] or ''
local expiryKey   = KEYS[8]
local toDead      = ARGV[6] == '1'
local traceKey    = KEYS[12]
local traced      = traceKey ~= nil and ARGV[7] == '1'

local POPPED, HANDOVER, FENCED, PAUSED = 0, 1, -1, 2
local fairAt = nil
for i = 8, #ARGV do
  if ARGV[i] == 'FAIR' then fairAt = i break end
end

-- #include lib/clock.lua: redisNow()
local now = redisNow()
local deadline = now + timeout
-- one conversion of the deadline to a string, not one per member moved
local deadlineArg = tostring(deadline)
local timed = topicType ~= 'PRIORITY'

-- #include lib/pop_claim.lua: claimSlot(ownerKey, prepareKey, pausedKey, epoch, epochText, worker, now, count)
local refused = claimSlot(ownerKey, prepareKey, pausedKey, epoch, ARGV[4], worker, now, count)
if refused then return refused end

-- #include lib/candidates.lua: candidatesOf(queue, timed, now, from, want, probe), firstOf(queue, timed)
local result = { POPPED, now, 0, epoch, 0, 0, 0 }
local expiring = expiryKey and redis.call('ZCARD', expiryKey) > 0
-- Nothing due (the poll of a consumer that has caught up): told by the store queue's first member, before the keys
-- written when members move are checked, with the delay until that member is due. With members due, that member is
-- the first round's probe (candidatesOf).
local probe = nil
if not expiring and not fairAt then
  probe = firstOf(storeKey, timed)
  if #probe == 0 then
    result[3] = -1
    return result
  end
  if timed and tonumber(probe[2]) > now then
    result[3] = math.max(1, tonumber(probe[2]) - now)
    return result
  end
end

-- A key of the wrong type (written by another client) must fail the call before anything moves,
-- or popped members would sit in the prepare queue with no one told, or leave the store queue for nowhere: the
-- counters hash and the blocked hash (below) are written after the members move, so their types are checked first
-- (the other keys are read before the members move).
if countersKey then redis.call('HEXISTS', countersKey, '') end

-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/expiry.lua: expireMembers(keys, topicType, now, limit, toDead)
-- #include lib/fair.lua: fair share between tenants
-- #include lib/blocked.lua: blockedKeyOf, noteBlocked, takeBlocked
-- #include lib/pop_reply.lua: newPopped, addPopped, popReply: the reply's lists of the members moved
local blockedKey = blockedKeyOf(storeKey)
-- nothing adds an entry before the call ends (noteBlocked): a hash empty now needs no look-up when members move
local blockedEmpty = redis.call('HLEN', blockedKey) == 0

local out = newPopped()
if expiring then
  local expired, more = expireMembers({ store = storeKey, prepare = prepareKey, attempts = attemptsKey,
    failures = KEYS[11], dead = KEYS[10], expiry = expiryKey, trace = traceKey }, topicType, now, 2 * count, toDead)
  if expired > 0 and countersKey then
    redis.call('HINCRBY', countersKey, 'expired', expired)
    if toDead then redis.call('HINCRBY', countersKey, 'dead', expired) end
  end
  result[5] = expired
  if more then return result end
end
local popped = 0
local skipped = 0
-- members left behind by a copy in flight, recorded for the commit of that copy
local blocked = {}
-- whether the attempts hash holds a count (read once: before the rounds with enterFirst, else when the first member
-- moves)
local retried = nil
-- Whether the candidates go into the prepare queue before they are told apart (sortCandidates): not when the call
-- expires members or shares between tenants, whose writes come before the members' entries. The keys written after
-- those entries have their types checked first (the attempts hash by its read, the origin and trace hashes).
local enterFirst = not expiring and not fairAt
if enterFirst then
  retried = redis.call('HLEN', attemptsKey) > 0
  if not timed then redis.call('HLEN', originKey) end
  if traced then redis.call('HLEN', traceKey) end
end
-- Which candidates have a copy in flight (inFlight[i] true), and whether the others are in the prepare queue
-- already (entered). With the prepare queue empty none is (one ZCARD). Otherwise, when no member of the prepare
-- queue has this call's deadline as its score (one ZCOUNT per call), the candidates are added with ZADD NX: when
-- every one was added, none was in flight; when fewer were, one ZMSCORE tells them apart: a member scored with this
-- call's deadline was added now (no other could have it), any other score is a copy in flight, whose own deadline
-- NX left alone. The members moving then need no ZADD of their own, and a round without a copy in flight (the
-- usual one) needs no look-up of its members. Without enterFirst, or when the deadline is taken, one ZMSCORE tells
-- them apart and the caller adds the members moving.
local deadlineScore = tonumber(deadlineArg)
local deadlineFree = nil
-- deadline, member, deadline, ... for the first n members: a ZADD's arguments
local function withDeadline(members, n)
  local entries = {}
  for i = 1, n do
    entries[2 * i - 1] = deadlineArg
    entries[2 * i] = members[i]
  end
  return entries
end
local function sortCandidates(members)
  if redis.call('ZCARD', prepareKey) == 0 then return nil, false end
  if enterFirst and deadlineFree == nil then
    deadlineFree = redis.call('ZCOUNT', prepareKey, deadlineArg, deadlineArg) == 0
  end
  if not (enterFirst and deadlineFree) then return callAll('ZMSCORE', prepareKey, members), false end
  local entries = withDeadline(members, #members)
  local added = 0
  for from = 1, #entries, CHUNK do
    added = added + redis.call('ZADD', prepareKey, 'NX', unpack(entries, from, math.min(from + CHUNK - 1, #entries)))
  end
  if added == #members then return nil, true end
  local there = callAll('ZMSCORE', prepareKey, members)
  local inFlight = {}
  for i = 1, #members do inFlight[i] = tonumber(there[i]) ~= deadlineScore end
  return inFlight, true
end
-- fair share: the rounds below run once per step of the plan, on that tenant's queue, up to its quota
local queueKey, upTo, plan, fk = storeKey, count, nil, nil
if fairAt then
  local k = tonumber(ARGV[fairAt + 1])
  fk = { tenants = KEYS[k], fair = KEYS[k + 1], inflight = KEYS[k + 2] }
  local weights = {}
  for i = fairAt + 4, fairAt + 3 + 2 * tonumber(ARGV[fairAt + 3]), 2 do weights[ARGV[i]] = tonumber(ARGV[i + 1]) end
  plan = fairPlan(fk, storeKey, weights, tonumber(ARGV[fairAt + 2]), count)
end
for s = 1, plan and 2 * #plan.steps or 1 do
if plan then queueKey, upTo, skipped = fairStep(plan, s, popped, count) end
-- Candidates blocked by an in-flight copy stay in the store queue and shift the window; a few
-- rounds bound the script's run time when many are blocked. Each round moves its members with
-- batch-wide commands.
for _ = 1, 4 do
  local want = upTo - popped
  if want <= 0 then break end
  local members, runs = candidatesOf(queueKey, timed, now, skipped, want, probe)
  probe = nil
  if #members == 0 then break end
  -- ZCARD first: the members of an empty prepare queue need no look-up (ZCARD checks the key's type too)
  local inFlight, entered = sortCandidates(members)
  -- none in flight (the usual round): the candidates and their runs are the members moving, as they are
  local moving, movingRuns, n = members, runs, #members
  if inFlight then
    moving, movingRuns, n = {}, {}, 0
    local i = 0
    for r = 1, #runs, 2 do
      local score, kept = runs[r], 0
      for _ = 1, runs[r + 1] do
        i = i + 1
        local member = members[i]
        if inFlight[i] then
          skipped = skipped + 1
          blocked[#blocked + 1] = member
        else
          n = n + 1
          moving[n] = member
          kept = kept + 1
        end
      end
      if kept > 0 then runAdd(movingRuns, score, kept) end
    end
  end
  if n > 0 then
    -- an empty attempts hash (no member of the slot failed before) needs no look-up either
    if retried == nil then retried = redis.call('HLEN', attemptsKey) > 0 end
    if retried then result[7] = 1 end
    local failures = nil
    if retried then failures = callAll('HMGET', attemptsKey, moving) end
    if not timed then
      local origins, k = {}, 0
      for r = 1, #movingRuns, 2 do
        for _ = 1, movingRuns[r + 1] do
          k = k + 1
          origins[2 * k - 1] = moving[k]
          origins[2 * k] = movingRuns[r]
        end
      end
      callAll('HSET', originKey, origins)
    end
    if expiring then
      if holdExpiries(expiryKey, KEYS[9], moving) then result[6] = 1 end
    end
    local traces = nil
    if traced and redis.call('HLEN', traceKey) > 0 then
      traces = callAll('HMGET', traceKey, moving)
      callAll('HDEL', traceKey, moving)
    end
    -- The round's members are the queue's first ones (none skipped, every candidate moving): removed by rank, one
    -- range instead of a look-up per member. A Redis user whose ACL predates ZREMRANGEBYRANK (docs/security.md) is
    -- refused it, and the members are removed by name.
    local removedByRank = false
    if skipped == 0 and n == #members then
      local range
      if timed then range = redis.pcall('ZREMRANGEBYRANK', queueKey, 0, n - 1)
      else range = redis.pcall('ZREMRANGEBYRANK', queueKey, -n, -1) end
      removedByRank = type(range) == 'number'
    end
    if not removedByRank then callAll('ZREM', queueKey, moving) end
    if not blockedEmpty then takeBlocked(blockedKey, moving) end
    if plan then fairPopped(fk, plan.current, moving) end
    if not entered then callAll('ZADD', prepareKey, withDeadline(moving, n)) end
    addPopped(out, moving, n, movingRuns, failures, traces, nil)
    popped = popped + n
  end
  if popped >= upTo or #members < want then break end
end
if plan then fairStepDone(plan, popped, upTo, skipped) end
end
if plan then fairFinish(fk, plan) end
noteBlocked(blockedKey, blocked)

if countersKey and popped > 0 then redis.call('HINCRBY', countersKey, 'delivered', popped) end

if popped < count then
  local nextDelay = -1
  if timed then
    local queues = { storeKey }
    if plan then
      queues = {}
      for i, step in ipairs(plan.steps) do queues[i] = step.queue end
    end
    for _, queue in ipairs(queues) do
      local upcoming = redis.call('ZRANGEBYSCORE', queue, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
      if #upcoming > 0 then
        local delay = math.max(1, tonumber(upcoming[2]) - now)
        if nextDelay < 0 or delay < nextDelay then nextDelay = delay end
      end
    end
  end
  local cap = plan and fairWaitCap(plan)
  if cap and (nextDelay < 0 or cap < nextDelay) then nextDelay = cap end
  result[3] = nextDelay
end
return popReply(result, out)
