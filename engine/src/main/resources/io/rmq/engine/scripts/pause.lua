--[[
  pause: pauses or resumes the consumption of one slot. While the flag exists the pop script pops
  nothing from the slot (it still answers ownership claims); producers go on storing. Resuming
  publishes a wake notice "<slot>:0" so that consumers pop at once.

  KEYS[1]  pause flag      paused{<prefix><topic>_<slot>}

  ARGV[1]  paused          1 to pause, 0 to resume
  ARGV[2]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[3]  slot            the slot number, echoed in the wake notice

  Returns  1 when the state changed, 0 when the slot was already in that state, or when resuming a
           new slot that a growth of the topic holds (see growth_hold.lua): it stays held
]]
local pausedKey   = KEYS[1]
local pause       = ARGV[1] == '1'
local wakeChannel = ARGV[2]
local slot        = ARGV[3]
-- #include lib/wake.lua: publishWake(channel, slot, delay)

if pause then
  return redis.call('SET', pausedKey, '1', 'NX') and 1 or 0
end
-- a growth's hold (growth_hold.lua: "growth:<amount>") is no operator's pause: only the growth releases it.
-- The flag is read with SET ... XX GET, not GET, which the applications' minimal ACL does not grant.
local value = redis.call('SET', pausedKey, '1', 'XX', 'GET')
if not value then
  return 0
end
if string.sub(value, 1, 7) == 'growth:' then
  redis.call('SET', pausedKey, value)
  return 0
end
redis.call('DEL', pausedKey)
publishWake(wakeChannel, slot, 0)
return 1
