--[[
  stats: one slot's state, read atomically, for operators (admin API, metrics gauges).

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[4]  owner hash      owner{<prefix><topic>_<slot>}
  KEYS[5]  pause flag      paused{<prefix><topic>_<slot>}
  KEYS[6]  counters hash   counters{<prefix><topic>_<slot>} (optional; without it the counters are 0)
  KEYS[7]  tenants set     tenants{<prefix><topic>_<slot>} (optional, fair share, lib/fair.lua): pending, due and
                           oldestDueAge also count the queues of the tenants in it, tq:<tenant>{<prefix><topic>_<slot>}

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
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/fair.lua: fair share between tenants
local now = redisNow()

local queues = { storeKey }
if KEYS[7] then
  for _, tenant in ipairs(redis.call('ZRANGE', KEYS[7], 0, -1)) do
    if tenant ~= '' then queues[#queues + 1] = fairQueue(storeKey, tenant) end
  end
end
local pending, due, oldestDueAge = 0, 0, 0
for _, queue in ipairs(queues) do
  local size = redis.call('ZCARD', queue)
  pending = pending + size
  if topicType == 'PRIORITY' then
    due = due + size
  else
    local dueHere = redis.call('ZCOUNT', queue, '-inf', now)
    due = due + dueHere
    if dueHere > 0 then
      local oldest = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')
      oldestDueAge = math.max(oldestDueAge, now - math.floor(tonumber(oldest[2])))
    end
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
