-- The per-member send.lua that scripts/send.lua replaced, kept as the reference BatchScriptsEquivalenceIT
-- compares it with; KEYS, ARGV and replies as in the header of scripts/send.lua.
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local countersKey = KEYS[3]
local topicType   = ARGV[1]
local wakeChannel = ARGV[2]
local slot        = ARGV[3]
-- a wake channel in the slot's hash tag is sharded (Redis Cluster): SPUBLISH keeps the notice on the slot's node
local publishCommand = string.find(wakeChannel, '{', 1, true) and 'SPUBLISH' or 'PUBLISH'

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local timed = topicType ~= 'PRIORITY'
if topicType ~= 'RANGE_MERGE' and topicType ~= 'FIXED_TIME' and topicType ~= 'PRIORITY' then
  return redis.error_reply('RMQ_BAD_TYPE ' .. tostring(topicType))
end

-- A key of the wrong type (written by another client) must fail the call before anything is
-- stored, or a message would be stored and reported as failed: the prepare queue is read only for
-- some messages, the counters hash written last.
redis.call('ZCARD', prepareKey)
if countersKey then redis.call('HEXISTS', countersKey, '') end

local wakeDelay = nil
local function wakeIn(delay)
  if wakeDelay == nil or delay < wakeDelay then wakeDelay = delay end
end

-- Stores or merges one message; returns its status (1 stored, 0 merged).
local function send(value, member)
  local score
  if topicType == 'RANGE_MERGE' then
    score = now + tonumber(value)
  else
    score = tonumber(value)
  end

  local existing = redis.call('ZSCORE', storeKey, member)
  if existing then
    if topicType ~= 'RANGE_MERGE' then
      -- A consumer with nothing due sleeps until the earliest member not yet due (found before the
      -- write, as this member may be that one): a duplicate moved before it must wake the consumer.
      local wake = false
      if timed and score < tonumber(existing) then
        local upcoming = redis.call('ZRANGEBYSCORE', storeKey, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
        wake = score <= now or (#upcoming > 0 and score < tonumber(upcoming[2]))
      end
      redis.call('ZADD', storeKey, score, member)
      if wake then wakeIn(math.max(0, score - now)) end
    end
    return 0
  end

  -- Decide before adding whether an idle consumer of this slot needs waking.
  local head
  if timed then
    head = redis.call('ZRANGE', storeKey, 0, 0, 'WITHSCORES')
  else
    head = redis.call('ZREVRANGE', storeKey, 0, 0, 'WITHSCORES')
  end
  local wake = false
  if #head == 0 then
    wake = true
  elseif redis.call('ZSCORE', prepareKey, head[1]) then
    wake = true
  elseif timed then
    local headScore = tonumber(head[2])
    wake = headScore > now and score < headScore
  end

  redis.call('ZADD', storeKey, score, member)
  if wake then
    local delay = 0
    if timed and score > now then delay = score - now end
    wakeIn(delay)
  end
  return 1
end

local result = {}
local stored = 0
local function sendAndReport(value, member)
  local status = send(value, member)
  stored = stored + status
  result[#result + 1] = status
  result[#result + 1] = redis.call('ZSCORE', storeKey, member)
end
for i = 4, #ARGV, 2 do
  sendAndReport(ARGV[i], ARGV[i + 1])
end
if wakeDelay ~= nil then
  redis.call(publishCommand, wakeChannel, slot .. ':' .. string.format('%d', wakeDelay))
end
if countersKey then
  local sent = #result / 2
  redis.call('HINCRBY', countersKey, 'sent', sent)
  if sent > stored then redis.call('HINCRBY', countersKey, 'merged', sent - stored) end
end
return result
