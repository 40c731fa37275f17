-- The per-member pop.lua that scripts/pop.lua replaced, kept as the reference BatchScriptsEquivalenceIT
-- compares it with; KEYS, ARGV and replies as in the header of scripts/pop.lua.
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

local POPPED, HANDOVER, FENCED, PAUSED = 0, 1, -1, 2

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local deadline = now + timeout
local timed = topicType ~= 'PRIORITY'

if epoch > 0 then
  -- an epoch that is not a number (written by hand) counts as none: this claim replaces it
  local owned = tonumber(redis.call('HGET', ownerKey, 'epoch') or '0') or 0
  if epoch < owned then
    return { FENCED, now, -1, owned, 0, 0 }
  end
  if epoch > owned then
    redis.call('HSET', ownerKey, 'epoch', ARGV[4], 'worker', worker, 'since', now)
    if redis.call('ZCARD', prepareKey) > 0 then
      redis.call('HSET', ownerKey, 'handover', 1)
    else
      redis.call('HDEL', ownerKey, 'handover')
    end
  end
  if redis.call('HEXISTS', ownerKey, 'handover') == 1 then
    -- Only the previous owners' members can be there: this owner has not popped yet, and fenced
    -- callers cannot add any.
    local inFlight = redis.call('ZCARD', prepareKey)
    if inFlight > 0 then
      return { HANDOVER, now, -1, inFlight, 0, 0 }
    end
    redis.call('HDEL', ownerKey, 'handover')
  end
end
if count == 0 then
  return { POPPED, now, 0, epoch, 0, 0 }
end
if redis.call('EXISTS', pausedKey) == 1 then
  return { PAUSED, now, 1000, epoch, 0, 0 }
end

-- A key of the wrong type (written by another client) must fail the call before anything moves,
-- or popped members would sit in the prepare queue with no one told: the counters hash is written
-- last, so its type is checked first (the other keys are read before each member moves).
if countersKey then redis.call('HEXISTS', countersKey, '') end

local result = { POPPED, now, 0, epoch, 0, 0 }
local popped = 0
local skipped = 0
-- Candidates blocked by an in-flight copy stay in the store queue and shift the window; a few
-- rounds bound the script's run time when many are blocked.
for _ = 1, 4 do
  local want = count - popped
  local candidates
  if timed then
    candidates = redis.call('ZRANGEBYSCORE', storeKey, '-inf', now, 'WITHSCORES', 'LIMIT', skipped, want)
  else
    candidates = redis.call('ZREVRANGE', storeKey, skipped, skipped + want - 1, 'WITHSCORES')
  end
  for i = 1, #candidates, 2 do
    local member, score = candidates[i], candidates[i + 1]
    if redis.call('ZSCORE', prepareKey, member) then
      skipped = skipped + 1
    else
      -- a count that is not a number (written by hand) counts as 0; rollback.lua replaces it
      local failures = tonumber(redis.call('HGET', attemptsKey, member) or '0') or 0
      if not timed then redis.call('HSET', originKey, member, score) end
      redis.call('ZREM', storeKey, member)
      redis.call('ZADD', prepareKey, deadline, member)
      result[#result + 1] = member
      result[#result + 1] = score
      result[#result + 1] = failures + 1
      popped = popped + 1
    end
  end
  if popped >= count or #candidates < 2 * want then break end
end

if countersKey and popped > 0 then redis.call('HINCRBY', countersKey, 'delivered', popped) end

if popped < count then
  local nextDelay = -1
  if timed then
    local upcoming = redis.call('ZRANGEBYSCORE', storeKey, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if #upcoming > 0 then nextDelay = math.max(1, tonumber(upcoming[2]) - now) end
  end
  result[3] = nextDelay
end
return result
