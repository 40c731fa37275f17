--[[
  aging_epoch: fixes a topic's priority aging epoch E0 once: the first call for the topic records the Redis clock
  in the flow hash's field 'aging.epoch' (and increments 'gen', as every change of the hash does); every later
  call returns the epoch recorded. Aged scores are s = p - pace * (e - E0) (lib/aging.lua), so every producer of
  the topic must use the same E0; a member with no recorded send time counts as sent at E0.

  KEYS[1]  flow hash       flow{<prefix><topic>}

  Returns  the epoch, ms since 1970 on the Redis clock
]]
local flowKey = KEYS[1]
-- #include lib/clock.lua: redisNow()

local recorded = redis.call('HGET', flowKey, 'aging.epoch')
if recorded and tonumber(recorded) then return tonumber(recorded) end
local epoch = redisNow()
redis.call('HSET', flowKey, 'aging.epoch', tostring(epoch))
redis.call('HINCRBY', flowKey, 'gen', 1)
return epoch
