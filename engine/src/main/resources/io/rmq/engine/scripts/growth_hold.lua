--[[
  growth_hold: holds or releases a new slot of a growing topic. The hold is the slot's pause flag with
  the value "growth:<target amount>", so the pop script pops nothing from it (see pop.lua, PAUSED) while
  its old slot still holds members from before the split (see split_slot.lua). Releasing deletes the
  flag only when it is that hold (a pause set by an operator stays) and publishes a wake notice
  "<slot>:0" so that consumers pop at once.

  KEYS[1]  pause flag      paused{<prefix><topic>_<slot>}

  ARGV[1]  hold            1 to hold, 0 to release
  ARGV[2]  value           growth:<target amount>
  ARGV[3]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[4]  slot            the slot number, echoed in the wake notice

  Returns  1 when the state changed, 0 otherwise
]]
local pausedKey   = KEYS[1]
local hold        = ARGV[1] == '1'
local value       = ARGV[2]
local wakeChannel = ARGV[3]
local slot        = ARGV[4]
-- #include lib/wake.lua: publishWake(channel, slot, delay)

if hold then
  return redis.call('SET', pausedKey, value, 'NX') and 1 or 0
end
if redis.call('GET', pausedKey) ~= value then
  return 0
end
redis.call('DEL', pausedKey)
publishWake(wakeChannel, slot, 0)
return 1
