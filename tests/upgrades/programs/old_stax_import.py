from jax.experimental import stax

print(stax.Dense(4))
