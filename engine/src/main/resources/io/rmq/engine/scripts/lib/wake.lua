-- Publishes the wake notice "<slot>:<delay ms>" on a topic's wake channel. A wake channel in the slot's
-- hash tag is sharded (Redis Cluster): SPUBLISH keeps the notice on the slot's node.
local function publishWake(channel, slot, delay)
  local command = string.find(channel, '{', 1, true) and 'SPUBLISH' or 'PUBLISH'
  redis.call(command, channel, slot .. ':' .. string.format('%d', delay))
end
