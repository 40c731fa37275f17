-- Expiry of pending messages: removes up to `limit` members of the store queue whose expiry has passed
-- (expiry sorted set: member -> expiresAt, ms on the Redis clock), whatever their due time or priority.
-- Uses callAll (lib/call_all.lua, included before this piece by the script).
--   k        the slot's keys: { store, prepare, attempts, failures, dead, expiry, trace, since } (trace optional:
--            the expired members' trace entries are removed; since optional: their first send times, lib/aging.lua)
--            and, with limits per key, parked = { find = function(members) -> member -> { score = ... } for the
--            members waiting in their key's parked set, remove = function(found, members, gone) } (lib/keys.lua's
--            parkedOf): a member held back by its key expires there too, and the keys of the members gone (no copy
--            in flight) are forgotten
--   toDead   true: keep each in the dead queue (scored with now) with the failure "expired"; false: drop it
-- An entry whose member is not in the store queue (left by another client) is removed and not counted.
-- A member that also has a copy in flight (sent again while being consumed) keeps its attempts and
-- failure record: they belong to that copy.
-- Returns  the number of members expired, and whether `limit` entries were found (more may have expired).
local function expireMembers(k, topicType, now, limit, toDead)
  local entries = redis.call('ZRANGEBYSCORE', k.expiry, '-inf', now, 'LIMIT', 0, limit)
  if #entries == 0 then return 0, false end
  local stored = callAll('ZMSCORE', k.store, entries)
  local parked = {}
  if k.parked then
    local elsewhere = {}
    for i, member in ipairs(entries) do
      if not stored[i] then elsewhere[#elsewhere + 1] = member end
    end
    parked = k.parked.find(elsewhere)
  end
  local expired, scores = {}, {}
  for i, member in ipairs(entries) do
    local score = stored[i] or (parked[member] and parked[member].score)
    if score then
      expired[#expired + 1] = member
      scores[#scores + 1] = score
    end
  end
  callAll('ZREM', k.expiry, entries)
  if #expired == 0 then return 0, #entries == limit end
  callAll('ZREM', k.store, expired)
  if k.trace then callAll('HDEL', k.trace, expired) end
  if k.since then callAll('HDEL', k.since, expired) end
  local inFlight, attempts, recorded = {}, {}, {}
  if redis.call('ZCARD', k.prepare) > 0 then inFlight = callAll('ZMSCORE', k.prepare, expired) end
  if k.parked then
    local gone = {}
    for i, member in ipairs(expired) do
      if not inFlight[i] then gone[#gone + 1] = member end
    end
    k.parked.remove(parked, expired, gone)
  end
  if redis.call('HLEN', k.attempts) > 0 then attempts = callAll('HMGET', k.attempts, expired) end
  if toDead then recorded = callAll('HMGET', k.failures, expired) end
  local retried, toDeadQueue, records = {}, {}, {}
  for i, member in ipairs(expired) do
    local own = not inFlight[i]
    if own and attempts[i] then retried[#retried + 1] = member end
    if toDead then
      toDeadQueue[#toDeadQueue + 1] = now
      toDeadQueue[#toDeadQueue + 1] = member
      if own or not recorded[i] then
        -- "<deliveries>\t<priority>\t<failure>" as rollback.lua records it; a PRIORITY member retried
        -- before was requeued behind the others, so its priority is the one its last failure recorded
        local priority = ''
        if topicType == 'PRIORITY' then
          priority = (own and recorded[i] and string.match(recorded[i], '^[^\t]*\t([^\t]*)')) or scores[i]
        end
        local deliveries = own and math.floor(tonumber(attempts[i] or '0') or 0) or 0
        records[#records + 1] = member
        records[#records + 1] = deliveries .. '\t' .. priority .. '\texpired'
      end
    end
  end
  if #retried > 0 then
    callAll('HDEL', k.attempts, retried)
    if not toDead then callAll('HDEL', k.failures, retried) end
  end
  if toDead then
    callAll('ZADD', k.dead, toDeadQueue)
    if #records > 0 then callAll('HSET', k.failures, records) end
  end
  return #expired, #entries == limit
end

-- A pop's members moving to the prepare queue take their expiry along: what is left in the expiry set for them has
-- not expired, and moves into the held expiry hash while they are in flight (rollback.lua and release.lua put it
-- back). Returns whether any member had one.
local function holdExpiries(expiryKey, heldKey, moving)
  local expiries = callAll('ZMSCORE', expiryKey, moving)
  local held, heldMembers = {}, {}
  for i, member in ipairs(moving) do
    if expiries[i] then
      held[#held + 1] = member
      held[#held + 1] = expiries[i]
      heldMembers[#heldMembers + 1] = member
    end
  end
  if #heldMembers == 0 then return false end
  callAll('HSET', heldKey, held)
  callAll('ZREM', expiryKey, heldMembers)
  return true
end
