-- Fair share between tenants (stride scheduling), per slot. Uses callAll (lib/call_all.lua, included before).
-- A tenant is named by its encoded name (TenantName in the engine: '{', '}', '%' and control bytes as %XX); the
-- default tenant '' keeps the store queue <prefix><topic>_<slot>, tenant t has tq:<t>{<prefix><topic>_<slot>} (built
-- from the store queue's name, so it carries the slot's hash tag; docs/redis-cluster.md lists it).
--   tenants  tenants{...}: sorted set, each tenant with pending members -> its pass
--   fair     fair{...}: hash, field vt: the virtual time, the lowest pass when the slot was last served
--   inflight tenant{...}: hash, member in flight -> its tenant when it is not the default tenant

local function fairQueue(store, tenant)
  if tenant == '' then return store end
  return 'tq:' .. tenant .. '{' .. store .. '}'
end

-- A tenant whose queue received members takes part again: pass = max(its pass, vt), so an idle tenant banks no credit.
local function fairRegister(tenantsKey, fairKey, tenant)
  local pass = tonumber(redis.call('ZSCORE', tenantsKey, tenant) or '')
  local vt = tonumber(redis.call('HGET', fairKey, 'vt') or '0') or 0
  if pass == nil or pass < vt then redis.call('ZADD', tenantsKey, vt, tenant) end
end

-- The tenant of each member (the inflight hash; '' when none), and the queue each belongs to.
local function fairQueuesOf(inflightKey, store, members)
  local tenants, queues = {}, {}
  if #members > 0 and redis.call('HLEN', inflightKey) > 0 then tenants = callAll('HMGET', inflightKey, members) end
  for i = 1, #members do
    tenants[i] = tenants[i] or ''
    queues[i] = fairQueue(store, tenants[i])
  end
  return tenants, queues
end

-- ZMSCORE of each member in its own queue (one call per queue).
local function fairScores(queues, members)
  local byQueue, at, scores = {}, {}, {}
  for i, q in ipairs(queues) do
    if not byQueue[q] then byQueue[q], at[q] = {}, {} end
    byQueue[q][#byQueue[q] + 1] = members[i]
    at[q][#at[q] + 1] = i
  end
  for q, list in pairs(byQueue) do
    local found = callAll('ZMSCORE', q, list)
    for j, i in ipairs(at[q]) do scores[i] = found[j] end
  end
  return scores
end

-- The members settled (left the prepare queue): their inflight entries go; tenants whose queue got members back
-- (requeued, `back` member -> true) take part again.
local function fairSettled(fk, members, tenants, back)
  local registered, named = {}, {}
  for i, member in ipairs(members) do
    if tenants[i] ~= '' then
      named[#named + 1] = member
      if back[member] and not registered[tenants[i]] then
        registered[tenants[i]] = true
        fairRegister(fk.tenants, fk.fair, tenants[i])
      end
    end
  end
  if #named > 0 then callAll('HDEL', fk.inflight, named) end
end

-- The plan of one pop: up to 16 tenants with the lowest passes (the default tenant joins when its store queue has
-- members), and how many members each may take, by stride over their weights: each member given to the tenant
-- whose pass, advanced by 1 / weight per member, is lowest (the heavier one on equal passes).
--   fk  { tenants, fair, inflight } keys; weights: tenant -> weight; defaultWeight for the others
local function fairPlan(fk, store, weights, defaultWeight, count)
  if not redis.call('ZSCORE', fk.tenants, '') and redis.call('ZCARD', store) > 0 then
    fairRegister(fk.tenants, fk.fair, '')
  end
  local order = redis.call('ZRANGE', fk.tenants, 0, 15, 'WITHSCORES')
  local plan = { steps = {}, more = redis.call('ZCARD', fk.tenants) > #order / 2 }
  local virtual = {}
  for i = 1, #order, 2 do
    local w = weights[order[i]] or defaultWeight
    if w <= 0 then w = defaultWeight end
    local step = { tenant = order[i], pass = tonumber(order[i + 1]), weight = w, quota = 0, got = 0 }
    step.queue = fairQueue(store, step.tenant)
    plan.steps[#plan.steps + 1] = step
    virtual[#plan.steps] = step.pass
  end
  for _ = 1, count do
    local best = nil
    for i = 1, #plan.steps do
      -- equal passes: the heavier tenant first
      if best == nil or virtual[i] < virtual[best]
          or (virtual[i] == virtual[best] and plan.steps[i].weight > plan.steps[best].weight) then
        best = i
      end
    end
    if best == nil then break end
    plan.steps[best].quota = plan.steps[best].quota + 1
    virtual[best] = virtual[best] + 1 / plan.steps[best].weight
  end
  return plan
end

-- The queue the rounds of step s read, the count they stop at and the blocked candidates to skip. Steps 1..n visit
-- the plan's tenants with their quotas; steps n+1..2n give what the first sweep left to the tenants that took their
-- whole quota (they may hold more), in the same order.
local function fairStep(plan, s, popped, count)
  local n = #plan.steps
  local step = plan.steps[(s - 1) % n + 1]
  plan.current, plan.from = step, popped
  if s <= n then return step.queue, popped + step.quota, 0 end
  if step.full then return step.queue, count, step.skipped end
  return step.queue, popped, 0
end

-- After the rounds of a step: whether the tenant took all it was offered, and the candidates it skipped.
local function fairStepDone(plan, popped, upTo, skipped)
  local step = plan.current
  step.full = upTo > plan.from and popped >= upTo
  step.skipped = skipped
end

-- After the moves of a round: the members in flight are recorded under their tenant.
local function fairPopped(fk, step, members)
  step.got = step.got + #members
  if step.tenant ~= '' and #members > 0 then
    local entries = {}
    for i, member in ipairs(members) do
      entries[2 * i - 1] = member
      entries[2 * i] = step.tenant
    end
    callAll('HSET', fk.inflight, entries)
  end
end

-- The most the caller should wait before it pops again, when the pop took fewer members than it asked for: 0 when a
-- tenant filled its quota (it may hold more), 10 ms when tenants beyond the plan exist (the next plan reaches them
-- as passes move), else nil (the queues' own due times decide).
local function fairWaitCap(plan)
  for _, step in ipairs(plan.steps) do
    if step.full then return 0 end
  end
  if plan.more then return 10 end
  return nil
end

-- After the pop: passes advance by got / weight; tenants whose queue is empty leave the set; a tenant that got
-- nothing while others were served moves behind the highest pass visited (it gains no credit for waiting);
-- vt becomes the lowest pass visited.
local function fairFinish(fk, plan)
  if #plan.steps == 0 then return end
  local highest = plan.steps[#plan.steps].pass
  local served = false
  for _, step in ipairs(plan.steps) do
    if step.got > 0 then served = true end
  end
  for _, step in ipairs(plan.steps) do
    if redis.call('ZCARD', step.queue) == 0 then
      redis.call('ZREM', fk.tenants, step.tenant)
    elseif step.got > 0 then
      redis.call('ZADD', fk.tenants, step.pass + step.got / step.weight, step.tenant)
    elseif served and step.quota > 0 then
      redis.call('ZADD', fk.tenants, highest + 1 / step.weight, step.tenant)
    end
  end
  redis.call('HSET', fk.fair, 'vt', plan.steps[1].pass)
end
