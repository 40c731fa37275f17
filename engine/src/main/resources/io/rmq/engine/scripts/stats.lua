--[[
  stats: one slot's state, read atomically, for operators (admin API, metrics gauges).

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[4]  owner hash      owner{<prefix><topic>_<slot>}
  KEYS[5]  pause flag      paused{<prefix><topic>_<slot>}
  KEYS[6]  counters hash   counters{<prefix><topic>_<slot>} (optional; without it the counters are 0)

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME

  Returns  { pending, due, oldestDueAge, inFlight, dead, paused, worker, epoch, since,
             sent, merged, delivered, acked, nacked, deadLettered, released, requeued, purged, trimmed,
             cancelled, rescheduled, expired, ticked }
           pending       members of the store queue
           due           members due now (timed types: score <= now; PRIORITY: all pending)
           oldestDueAge  ms since the oldest due member became due (timed types), else 0
           inFlight      members of the prepare queue
           dead          members of the dead queue
           paused        1 while consumption is paused, else 0
           worker, epoch, since  the owner hash's fields ('' / 0 / 0 without coordination)
           sent ... ticked       the counters hash's fields since the slot was first used (0 when absent;
                                 deadLettered is its field 'dead'): see the scripts that count them
]]
local storeKey   = KEYS[1]
local prepareKey = KEYS[2]
local deadKey    = KEYS[3]
local ownerKey   = KEYS[4]
local pausedKey  = KEYS[5]
local countersKey = KEYS[6]
local topicType  = ARGV[1]

-- #include lib/clock.lua: redisNow()
local now = redisNow()

local pending = redis.call('ZCARD', storeKey)
local due, oldestDueAge = pending, 0
if topicType ~= 'PRIORITY' then
  due = redis.call('ZCOUNT', storeKey, '-inf', now)
  if due > 0 then
    local oldest = redis.call('ZRANGE', storeKey, 0, 0, 'WITHSCORES')
    oldestDueAge = math.max(0, now - math.floor(tonumber(oldest[2])))
  end
end
local owner = redis.call('HMGET', ownerKey, 'worker', 'epoch', 'since')
local reply = { pending, due, oldestDueAge, redis.call('ZCARD', prepareKey), redis.call('ZCARD', deadKey),
         redis.call('EXISTS', pausedKey), owner[1] or '', tonumber(owner[2] or '0') or 0, tonumber(owner[3] or '0') or 0 }
local fields = { 'sent', 'merged', 'delivered', 'acked', 'nacked', 'dead', 'released', 'requeued', 'purged', 'trimmed',
  'cancelled', 'rescheduled', 'expired', 'ticked' }
local counted = {}
if countersKey then counted = redis.call('HMGET', countersKey, unpack(fields)) end
-- a count that is not a number (written by hand) reads as 0 rather than cutting the reply short
for i = 1, #fields do reply[#reply + 1] = tonumber(counted[i] or '0') or 0 end
return reply
