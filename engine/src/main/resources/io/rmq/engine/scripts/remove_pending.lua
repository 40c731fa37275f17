--[[
  remove_pending: deletes one pending message (from the store queue) and what is recorded about it.
  A copy being consumed (in the prepare queue) is not touched.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[3]  failures hash   failures{<prefix><topic>_<slot>}
  KEYS[4]  expiry set      expiry{<prefix><topic>_<slot>} (optional): its expiry entry is removed

  ARGV[1]  member          the message content

  Returns  1 when the message was pending and is removed, 0 when it was not pending
]]
local storeKey    = KEYS[1]
local attemptsKey = KEYS[2]
local failuresKey = KEYS[3]
local member      = ARGV[1]

if redis.call('ZREM', storeKey, member) == 0 then
  return 0
end
redis.call('HDEL', attemptsKey, member)
redis.call('HDEL', failuresKey, member)
if KEYS[4] then redis.call('ZREM', KEYS[4], member) end
return 1
